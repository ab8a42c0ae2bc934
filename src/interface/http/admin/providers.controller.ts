import { Body, Controller, Get, HttpCode, Param, Post, Query, Res, UseGuards } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ReconcileProvider } from '../../../application/reconciliation/reconcile-provider';
import { ReconciliationReport } from '../../../application/reconciliation/reconciliation-report';
import { ShowProviderBreakers } from '../../../application/routing/show-provider-breakers';
import { SyncProviderRoutes } from '../../../application/routing/sync-provider-routes';
import { ServiceError } from '../../../application/shared/service-error';
import { Actor } from '../../../domain/shared/actor';
import { refuseUnknownQuery } from '../validation/query-values';
import { AdminTokenGuard } from './admin-token.guard';
import { RequiresPermission } from './permission.decorator';
import { SyncProviderDto } from './dto/routes.dto';
import { CurrentOperator } from './operator.decorator';
import { reconciliationReportPage } from './reconciliation-report-page';
import { REPORT_SECURITY_POLICY } from './report-page-layout';

/** Live providers: route sync from their catalogs, circuit breakers, and daily reconciliation. */
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
    return this.queries.execute(new ShowProviderBreakers());
  }

  /** Proposes routes from the provider's catalogs; `apply: true` records them. */
  @Post(':provider/sync')
  @HttpCode(200)
  @RequiresPermission('manage_routes')
  sync(@Param('provider') provider: string, @Body() body: SyncProviderDto, @CurrentOperator() operator: Actor) {
    return this.commands.execute(new SyncProviderRoutes(provider, body.apply === true, operator));
  }

  /** One UTC day of the provider's report against our live orders: JSON, or a page for finance (`format=html`). */
  @Get('reconciliation')
  @RequiresPermission('read')
  async reconciliation(
    @Query() query: Record<string, unknown>,
    @CurrentOperator() operator: Actor,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<ReconciliationReport | string> {
    refuseUnknownQuery(query, ['date', 'provider', 'format']);
    const { date, provider, format } = query;
    const chosen = format ?? 'json';
    if (chosen !== 'json' && chosen !== 'html') throw new ServiceError('validation_failed', 'format: json or html');
    if (typeof date !== 'string') throw new ServiceError('validation_failed', 'date: required once, as YYYY-MM-DD');
    if (provider !== undefined && typeof provider !== 'string')
      throw new ServiceError('validation_failed', 'provider: give it once');
    const report = await this.commands.execute(new ReconcileProvider(provider ?? null, date, operator));
    if (chosen === 'json') return report;
    void reply.header('content-security-policy', REPORT_SECURITY_POLICY).type('text/html; charset=utf-8');
    return reconciliationReportPage(report);
  }
}
