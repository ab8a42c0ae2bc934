import type {
  Overview,
  PeriodTotals,
  RateRow,
  SettlementPercentiles,
} from '../../../application/operations/show-overview';
import type { ProviderHealth, ServiceHealth } from '../../../application/operations/show-service-health';
import type { WebhookOverview, WebhookTotals } from '../../../application/operations/show-webhook-overview';
import {
  BreakerPolicyResource,
  BreakerStateResource,
  breakerPolicyResource,
  breakerStateResource,
} from './breaker-resources';
import { ProviderFloatResource, providerFloatResource } from './provider-status-resource';

export interface RateRowResource {
  name: string;
  succeeded: number;
  failed: number;
  success_rate: number | null;
}

export interface ProviderHealthResource {
  provider: string;
  float: ProviderFloatResource | null;
  float_error: string | null;
  balance_endpoint: boolean;
  breaker: BreakerStateResource | null;
}

export interface WebhookTotalsResource {
  attempts: number;
  delivered: number;
  retrying: number;
  failed: number;
  failure_rate: number | null;
}

/** The overview's panels: orders, providers and projectors, webhooks, and the rows all of them read. */
export interface OverviewResource {
  as_of: string;
  today: string;
  days: string[];
  periods: { today: PeriodTotals; last_7_days: PeriodTotals };
  by_day: Overview['byDay'];
  success_rate_by_operator: RateRowResource[];
  success_rate_by_provider: RateRowResource[];
  settlement_ms: SettlementPercentiles;
  held_now: number;
  refunds_last_7_days: number;
  rows_read: number;
  providers: ProviderHealthResource[];
  breaker_policy: BreakerPolicyResource;
  projections: { name: string; lag_seconds: number }[];
  projection_lag_seconds: number;
  webhooks: {
    today: WebhookTotalsResource;
    last_7_days: WebhookTotalsResource;
    by_day: ({ day: string } & WebhookTotalsResource)[];
  };
}

const rateRowResource = (row: RateRow): RateRowResource => ({
  name: row.name,
  succeeded: row.succeeded,
  failed: row.failed,
  success_rate: row.successRate,
});

const providerHealthResource = (health: ProviderHealth): ProviderHealthResource => ({
  provider: health.provider,
  float: providerFloatResource(health.float),
  float_error: health.floatError,
  balance_endpoint: health.balanceEndpoint,
  breaker: health.breaker && breakerStateResource(health.breaker),
});

const webhookTotalsResource = (totals: WebhookTotals): WebhookTotalsResource => ({
  attempts: totals.attempts,
  delivered: totals.delivered,
  retrying: totals.retrying,
  failed: totals.failed,
  failure_rate: totals.failureRate,
});

export const overviewResource = (
  overview: Overview,
  webhooks: WebhookOverview,
  health: ServiceHealth,
): OverviewResource => ({
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
