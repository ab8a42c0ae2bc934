import { Inject } from '@nestjs/common';
import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../ports/clock.port';
import { DailyOrderStat, OVERVIEW_STATS, OverviewStats } from '../ports/overview-stats.port';
import { lastSevenDays } from './overview-days';

export interface OutcomeTotals {
  orders: number;
  /** Per currency: amounts of different currencies are never added together. */
  amounts: Record<string, string>;
}

/** Totals by scope ("<currency> <environment>"), then by outcome. */
export type PeriodTotals = Record<string, Record<string, OutcomeTotals>>;

export interface Overview {
  asOf: string;
  today: string;
  days: string[];
  periods: { today: PeriodTotals; last7Days: PeriodTotals };
  byDay: { day: string; placed: number; succeeded: number; failed: number; held: number }[];
  successRateByOperator: RateRow[];
  successRateByProvider: RateRow[];
  settlementMs: SettlementPercentiles;
  heldNow: number;
  refundsLast7Days: number;
  rowsRead: number;
}

export interface SettlementPercentiles {
  p50: number | null;
  p95: number | null;
  settled: number;
}

export interface RateRow {
  name: string;
  succeeded: number;
  failed: number;
  /** succeeded / (succeeded + failed), null before any final outcome. */
  successRate: number | null;
}

export class ShowOverview extends Query<Overview> {}

const SCALE = 4;

/** "How are we doing": today and the last 7 days from the daily counters, with the held orders now. */
@QueryHandler(ShowOverview)
export class ShowOverviewHandler implements IQueryHandler<ShowOverview, Overview> {
  constructor(
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(OVERVIEW_STATS) private readonly stats: OverviewStats,
  ) {}

  async execute(): Promise<Overview> {
    const now = this.clock.now();
    const days = lastSevenDays(now);
    const today = days[days.length - 1];
    const [rows, held] = await Promise.all([this.stats.dailyStats(days[0]), this.stats.heldNow()]);
    const scope = (row: DailyOrderStat) => `${row.currency} ${row.environment}`;
    return {
      asOf: now.toISOString(),
      today,
      days,
      periods: {
        today: totals(
          rows.filter((row) => row.day === today),
          scope,
        ),
        last7Days: totals(rows, scope),
      },
      byDay: days.map((day) => {
        const of = (outcome: string) =>
          rows.filter((row) => row.day === day && row.outcome === outcome).reduce((sum, row) => sum + row.orders, 0);
        return { day, placed: of('placed'), succeeded: of('succeeded'), failed: of('failed'), held: of('held') };
      }),
      successRateByOperator: rates(rows, (row) => row.operator),
      successRateByProvider: rates(rows, (row) => row.provider),
      settlementMs: percentiles(rows, this.stats.settlementBucketsMs),
      heldNow: held,
      refundsLast7Days: rows.filter((row) => row.outcome === 'refunded').reduce((sum, row) => sum + row.orders, 0),
      rowsRead: rows.length,
    };
  }
}

function totals(rows: readonly DailyOrderStat[], scopeOf: (row: DailyOrderStat) => string): PeriodTotals {
  const out: Record<string, Record<string, { orders: number; amounts: Record<string, bigint> }>> = {};
  for (const row of rows) {
    const scope = (out[scopeOf(row)] ??= {});
    const entry = (scope[row.outcome] ??= { orders: 0, amounts: {} });
    entry.orders += row.orders;
    entry.amounts[row.currency] = (entry.amounts[row.currency] ?? 0n) + scaled(row.amount);
  }
  return Object.fromEntries(
    Object.entries(out).map(([scope, outcomes]) => [
      scope,
      Object.fromEntries(
        Object.entries(outcomes).map(([outcome, entry]) => [
          outcome,
          {
            orders: entry.orders,
            amounts: Object.fromEntries(Object.entries(entry.amounts).map(([c, v]) => [c, decimal(v)])),
          },
        ]),
      ),
    ]),
  );
}

function rates(rows: readonly DailyOrderStat[], nameOf: (row: DailyOrderStat) => string): RateRow[] {
  const byName = new Map<string, { succeeded: number; failed: number }>();
  for (const row of rows) {
    if (row.outcome !== 'succeeded' && row.outcome !== 'failed') continue;
    const entry = byName.get(nameOf(row)) ?? { succeeded: 0, failed: 0 };
    entry[row.outcome] += row.orders;
    byName.set(nameOf(row), entry);
  }
  return [...byName.entries()]
    .map(([name, { succeeded, failed }]) => ({
      name,
      succeeded,
      failed,
      successRate: succeeded + failed > 0 ? Math.round((succeeded / (succeeded + failed)) * 10_000) / 10_000 : null,
    }))
    .sort((a, b) => b.succeeded + b.failed - (a.succeeded + a.failed));
}

/** p50 and p95 as the upper bound of the bucket they fall in (the histogram's resolution). */
function percentiles(rows: readonly DailyOrderStat[], bounds: readonly number[]): SettlementPercentiles {
  const buckets = bounds.map(() => 0).concat(0);
  for (const row of rows) row.settleMsBuckets.forEach((count, index) => (buckets[index] += count));
  const settled = buckets.reduce((sum, count) => sum + count, 0);
  const at = (quantile: number): number | null => {
    if (settled === 0) return null;
    let seen = 0;
    for (let index = 0; index < buckets.length; index++) {
      seen += buckets[index];
      if (seen >= quantile * settled) return bounds[index] ?? Infinity;
    }
    return null;
  };
  return { p50: at(0.5), p95: at(0.95), settled };
}

const scaled = (text: string): bigint => {
  const negative = text.startsWith('-');
  const [whole, fraction = ''] = (negative ? text.slice(1) : text).split('.');
  const value = BigInt(whole) * 10n ** BigInt(SCALE) + BigInt(fraction.padEnd(SCALE, '0').slice(0, SCALE) || '0');
  return negative ? -value : value;
};
const decimal = (value: bigint): string => {
  const text = value.toString().padStart(SCALE + 1, '0');
  return `${text.slice(0, -SCALE)}.${text.slice(-SCALE)}`;
};
