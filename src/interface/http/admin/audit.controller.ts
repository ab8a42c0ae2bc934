import { Controller, Get, Headers, Param, Query, Req, Res, StreamableFile, UseGuards } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiExcludeController } from '@nestjs/swagger';
import { Readable } from 'node:stream';
import { AuditOperator } from '../../../application/audit/audit-operator';
import { AuditOrder } from '../../../application/audit/audit-order';
import { AuditWallet } from '../../../application/audit/audit-wallet';
import { DailyStatement } from '../../../application/audit/daily-statement';
import { PeriodStatement } from '../../../application/audit/period-statement';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ServiceError } from '../../../application/shared/service-error';
import { Environment, isEnvironment } from '../../../domain/shared/environment';
import { AdminTokenGuard } from './admin-token.guard';
import { RequiresPermission } from './permission.decorator';
import { answerWithProgress, ReportProgress, wantsProgress } from './progress-answer';
import { queryLimit, refuseUnknownQuery } from '../validation/query-values';
import { auditLines, isAuditFormat } from './audit-output';
import { operatorAuditResource, orderAuditResource } from './audit-resources';
import { REPORT_SECURITY_POLICY } from './report-page-layout';
import { statementReportPage } from './statement-report-page';
import { dailyStatementResource, periodStatementResource } from './statement-resources';

const CONTENT_TYPES = { jsonl: 'application/x-ndjson; charset=utf-8', csv: 'text/csv; charset=utf-8' } as const;

@ApiExcludeController()
@Controller('v1/admin/audit')
@UseGuards(AdminTokenGuard)
export class AuditController {
  constructor(private readonly queries: QueryBus) {}

  /** Streamed: a wallet's history can be long. A failure half way cuts the connection, so a truncated file never looks complete. */
  @Get('wallets/:partner_id/:environment')
  @RequiresPermission('read')
  async wallet(
    @Param('partner_id') partnerId: string,
    @Param('environment') environment: string,
    @Query('from') from?: unknown,
    @Query('to') to?: unknown,
    @Query('format') format?: unknown,
  ): Promise<StreamableFile> {
    const chosen = format ?? 'jsonl';
    if (!isAuditFormat(chosen)) throw new ServiceError('validation_failed', 'format: jsonl or csv');
    const audit = await this.queries.execute(
      new AuditWallet(partnerId, environmentOf(environment), text('from', from), text('to', to)),
    );
    return new StreamableFile(Readable.from(auditLines(audit.entries, chosen)), { type: CONTENT_TYPES[chosen] });
  }

  @Get('orders/:order_id')
  @RequiresPermission('read')
  order(@Param('order_id') orderId: string) {
    return this.queries.execute(new AuditOrder(orderId)).then(orderAuditResource);
  }

  @Get('operators/:name')
  @RequiresPermission('read')
  async operator(@Param('name') name: string, @Query() query: Record<string, unknown>) {
    refuseUnknownQuery(query, ['limit']);
    const audit = await this.queries.execute(new AuditOperator(name, queryLimit(query.limit, 100, 1000)));
    return operatorAuditResource(audit);
  }

  @Get('statements/:partner_id/:environment')
  @RequiresPermission('read')
  async statement(
    @Param('partner_id') partnerId: string,
    @Param('environment') environment: string,
    @Query('date') date?: unknown,
  ) {
    const day = text('date', date);
    if (day === undefined) throw new ServiceError('validation_failed', 'date: required, as YYYY-MM-DD');
    const statement = await this.queries.execute(new DailyStatement(partnerId, environmentOf(environment), day));
    return dailyStatementResource(statement);
  }

  /** A period statement as JSON or a page (`format=html`); with NDJSON accepted, progress lines first (decision 0103). */
  @Get('reports/:partner_id/:environment')
  @RequiresPermission('read')
  async report(
    @Param('partner_id') partnerId: string,
    @Param('environment') environment: string,
    @Headers('accept') accept: string | undefined,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
    @Query() query: Record<string, unknown>,
  ): Promise<void> {
    refuseUnknownQuery(query, ['from', 'to', 'format']);
    const { from, to, format } = query;
    const chosen = format ?? 'json';
    if (chosen !== 'json' && chosen !== 'html') throw new ServiceError('validation_failed', 'format: json or html');
    const first = text('from', from);
    if (first === undefined) throw new ServiceError('validation_failed', 'from: required, as YYYY-MM-DD');
    const last = text('to', to);
    if (last === undefined) throw new ServiceError('validation_failed', 'to: required, as YYYY-MM-DD');
    const statement = (progress?: ReportProgress) =>
      this.queries
        .execute(new PeriodStatement(partnerId, environmentOf(environment), first, last, progress))
        .then(periodStatementResource);
    if (wantsProgress(accept)) {
      await answerWithProgress(request, reply, 'audit report', async (progress) => {
        const report = await statement(progress);
        return chosen === 'json' ? report : statementReportPage(report);
      });
      return;
    }
    const report = await statement();
    if (chosen === 'json') {
      await reply.send(report);
      return;
    }
    await reply
      .header('content-security-policy', REPORT_SECURITY_POLICY)
      .type('text/html; charset=utf-8')
      .send(statementReportPage(report));
  }
}

function environmentOf(value: string): Environment {
  if (!isEnvironment(value)) throw new ServiceError('validation_failed', 'environment: sandbox or live');
  return value;
}

function text(name: string, value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new ServiceError('validation_failed', `${name}: give it once`);
  return value;
}
