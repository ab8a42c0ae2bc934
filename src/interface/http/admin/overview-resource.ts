import type { Overview, RateRow } from '../../../application/operations/show-overview';
import type { ProviderHealth, ServiceHealth } from '../../../application/operations/show-service-health';
import type { WebhookOverview, WebhookTotals } from '../../../application/operations/show-webhook-overview';
import { breakerPolicyResource, breakerStateResource } from './breaker-resources';
import { providerFloatResource } from './provider-status-resource';

const rateRowResource = (row: RateRow) => ({
  name: row.name,
  succeeded: row.succeeded,
  failed: row.failed,
  success_rate: row.successRate,
});

const providerHealthResource = (health: ProviderHealth) => ({
  provider: health.provider,
  float: providerFloatResource(health.float),
  float_error: health.floatError,
  balance_endpoint: health.balanceEndpoint,
  breaker: health.breaker && breakerStateResource(health.breaker),
});

const webhookTotalsResource = (totals: WebhookTotals) => ({
  attempts: totals.attempts,
  delivered: totals.delivered,
  retrying: totals.retrying,
  failed: totals.failed,
  failure_rate: totals.failureRate,
});

/** The overview's panels: orders, providers and projectors, webhooks, and the rows all of them read. */
export const overviewResource = (overview: Overview, webhooks: WebhookOverview, health: ServiceHealth) => ({
  as_of: overview.asOf,
  today: overview.today,
  days: overview.days,
  periods: { today: overview.periods.today, last_7_days: overview.periods.last7Days },
  by_day: overview.byDay,
  success_rate_by_operator: overview.successRateByOperator.map(rateRowResource),
  success_rate_by_provider: overview.successRateByProvider.map(rateRowResource),
  settlement_ms: overview.settlementMs,
  held_now: overview.heldNow,
  refunds_last_7_days: overview.refundsLast7Days,
  rows_read: overview.rowsRead + webhooks.rowsRead + health.rowsRead,
  providers: health.providers.map(providerHealthResource),
  breaker_policy: breakerPolicyResource(),
  projections: health.projections.map((projection) => ({ name: projection.name, lag_seconds: projection.lagSeconds })),
  projection_lag_seconds: health.projectionLagSeconds,
  webhooks: {
    today: webhookTotalsResource(webhooks.today),
    last_7_days: webhookTotalsResource(webhooks.last7Days),
    by_day: webhooks.byDay.map((day) => ({ day: day.day, ...webhookTotalsResource(day) })),
  },
});
