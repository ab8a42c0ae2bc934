import { Inject } from '@nestjs/common';
import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../ports/clock.port';
import { DailyWebhookStat, OVERVIEW_STATS, OverviewStats } from '../ports/overview-stats.port';
import { lastSevenDays } from './overview-days';

export interface WebhookTotals {
  attempts: number;
  delivered: number;
  retrying: number;
  failed: number;
  /** (retrying + failed) / attempts, null before any attempt. */
  failureRate: number | null;
}

export interface WebhookOverview {
  today: WebhookTotals;
  last7Days: WebhookTotals;
  byDay: ({ day: string } & WebhookTotals)[];
  rowsRead: number;
}

export class ShowWebhookOverview extends Query<WebhookOverview> {}

@QueryHandler(ShowWebhookOverview)
export class ShowWebhookOverviewHandler implements IQueryHandler<ShowWebhookOverview, WebhookOverview> {
  constructor(
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(OVERVIEW_STATS) private readonly stats: OverviewStats,
  ) {}

  async execute(): Promise<WebhookOverview> {
    const days = lastSevenDays(this.clock.now());
    const { stats, rowsRead } = await this.stats.webhookStats(days[0]);
    const ofDays = (wanted: readonly string[]) => totals(stats.filter((row) => wanted.includes(row.day)));
    return {
      today: ofDays([days[days.length - 1]]),
      last7Days: ofDays(days),
      byDay: days.map((day) => ({ day, ...ofDays([day]) })),
      rowsRead,
    };
  }
}

function totals(rows: readonly DailyWebhookStat[]): WebhookTotals {
  const of = (result: string) =>
    rows.filter((row) => row.result === result).reduce((sum, row) => sum + row.attempts, 0);
  const delivered = of('delivered');
  const retrying = of('retrying');
  const failed = of('failed');
  const attempts = delivered + retrying + failed;
  return {
    attempts,
    delivered,
    retrying,
    failed,
    failureRate: attempts > 0 ? Math.round(((retrying + failed) / attempts) * 10_000) / 10_000 : null,
  };
}
