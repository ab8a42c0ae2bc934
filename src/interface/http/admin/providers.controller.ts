import { Body, Controller, Get, HttpCode, Param, Post, Query, Res, UseGuards } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import {
  ListReconciliationRuns,
  RUNS_LIMIT_DEFAULT,
  RUNS_LIMIT_MAX,
} from '../../../application/reconciliation/list-reconciliation-runs';
import { ReconcileProvider } from '../../../application/reconciliation/reconcile-provider';
import { ShowReconciliation } from '../../../application/reconciliation/show-reconciliation';
import { ShowProviderBreakers } from '../../../application/routing/show-provider-breakers';
import { SyncProviderRoutes } from '../../../application/routing/sync-provider-routes';
import { ServiceError } from '../../../application/shared/service-error';
import { Actor } from '../../../domain/shared/actor';
import { queryLimit, refuseUnknownQuery } from '../validation/query-values';
import { AdminTokenGuard } from './admin-token.guard';
import { RequiresPermission } from './permission.decorator';
import { ReconcileDayDto, SyncProviderDto } from './dto/routes.dto';
import { CurrentOperator } from './operator.decorator';
import { providerBreakersResource } from './breaker-resources';
import { syncResource } from './route-resources';
import { reconciliationReportPage } from './reconciliation-report-page';
import {
  ReconciliationReportResource,
  ReconciliationRunResource,
  reconciliationReportResource,
  runResource,
  runsResource,
} from './reconciliation-resources';
import { REPORT_SECURITY_POLICY } from './report-page-layout';

@ApiExcludeController()
@Controller('v1/admin/providers')
@UseGuards(AdminTokenGuard)
export class ProvidersController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get('breakers')
  @RequiresPermission('read')
  breakers() {
    return this.queries.execute(new ShowProviderBreakers()).then(providerBreakersResource);
  }

  @Post(':provider/sync')
  @HttpCode(200)
  @RequiresPermission('manage_routes')
  sync(@Param('provider') provider: string, @Body() body: SyncProviderDto, @CurrentOperator() operator: Actor) {
    return this.commands.execute(new SyncProviderRoutes(provider, body.apply === true, operator)).then(syncResource);
  }

  /** The stored run of one UTC day; asks the provider nothing (decision 0133). */
  @Get('reconciliation')
  @RequiresPermission('read')
  reconciliation(@Query() query: Record<string, unknown>): Promise<ReconciliationRunResource> {
    refuseUnknownQuery(query, ['date', 'provider']);
    const { date, provider } = query;
    if (typeof date !== 'string') throw new ServiceError('validation_failed', 'date: required once, as YYYY-MM-DD');
    if (provider !== undefined && typeof provider !== 'string')
      throw new ServiceError('validation_failed', 'provider: give it once');
    return this.queries.execute(new ShowReconciliation(provider ?? null, date)).then(runResource);
  }

  /** Reconciles one UTC day: a finished day's mismatches become findings on their orders, once; the run is stored. */
  @Post('reconciliation')
  @HttpCode(200)
  @RequiresPermission('run_reconciliation')
  async reconcile(
    @Body() body: ReconcileDayDto,
    @Query() query: Record<string, unknown>,
    @CurrentOperator() operator: Actor,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<ReconciliationReportResource | string> {
    refuseUnknownQuery(query, ['format']);
    const format = formatOf(query.format);
    const report = await this.commands.execute(new ReconcileProvider(body.provider ?? null, body.date, operator));
    return answered(reconciliationReportResource(report), format, reply);
  }

  @Get('reconciliation/runs')
  @RequiresPermission('read')
  runs(@Query() query: Record<string, unknown>) {
    refuseUnknownQuery(query, ['provider', 'limit']);
    const { provider } = query;
    if (provider !== undefined && typeof provider !== 'string')
      throw new ServiceError('validation_failed', 'provider: give it once');
    const limit = queryLimit(query.limit, RUNS_LIMIT_DEFAULT, RUNS_LIMIT_MAX);
    return this.queries.execute(new ListReconciliationRuns(provider ?? null, limit)).then(runsResource);
  }
}

function formatOf(format: unknown): 'json' | 'html' {
  const chosen = format ?? 'json';
  if (chosen !== 'json' && chosen !== 'html') throw new ServiceError('validation_failed', 'format: json or html');
  return chosen;
}

function answered(
  report: ReconciliationReportResource,
  format: 'json' | 'html',
  reply: FastifyReply,
): ReconciliationReportResource | string {
  if (format === 'json') return report;
  void reply.header('content-security-policy', REPORT_SECURITY_POLICY).type('text/html; charset=utf-8');
  return reconciliationReportPage(report);
}
