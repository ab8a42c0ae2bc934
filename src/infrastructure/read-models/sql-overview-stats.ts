import { DailyOrderStat, DailyWebhookStat, OverviewStats } from '../../application/ports/overview-stats.port';
import { SqlExecutor } from '../sql/sql-database';
import { SETTLEMENT_BUCKETS_MS } from './order-daily-stats.projection';

export class SqlOverviewStats implements OverviewStats {
  readonly settlementBucketsMs = SETTLEMENT_BUCKETS_MS;

  constructor(private readonly db: SqlExecutor) {}

  async dailyStats(fromDay: string): Promise<DailyOrderStat[]> {
    const rows = await this.db.query<{
      day: string;
      environment: string;
      currency: string;
      operator: string;
      provider: string;
      outcome: string;
      orders: string;
      amount: string;
      settle_ms_buckets: string[];
    }>(
      `SELECT to_char(day, 'YYYY-MM-DD') AS day, environment, currency, operator, provider, outcome,
              orders::text AS orders, amount::text AS amount, settle_ms_buckets::text[] AS settle_ms_buckets
         FROM rm_order_daily_stats WHERE day >= $1::date ORDER BY day`,
      [fromDay],
    );
    return rows.map((row) => ({
      day: row.day,
      environment: row.environment,
      currency: row.currency,
      operator: row.operator,
      provider: row.provider,
      outcome: row.outcome,
      orders: Number(row.orders),
      amount: row.amount,
      settleMsBuckets: row.settle_ms_buckets.map(Number),
    }));
  }

  async heldNow(): Promise<number> {
    const rows = await this.db.query<{ held: string }>(
      `SELECT count(*)::text AS held FROM rm_orders WHERE held_at IS NOT NULL AND status = 'DISPUTED'`,
    );
    return Number(rows[0]?.held ?? 0);
  }

  async webhookStats(fromDay: string): Promise<{ stats: DailyWebhookStat[]; rowsRead: number }> {
    const rows = await this.db.query<{
      day: string;
      environment: string;
      result: string;
      attempts: string;
      rows: string;
    }>(
      `SELECT to_char(day, 'YYYY-MM-DD') AS day, environment, result, sum(attempts)::text AS attempts, count(*)::text AS rows
         FROM webhook_daily_stats WHERE day >= $1::date GROUP BY day, environment, result ORDER BY day`,
      [fromDay],
    );
    return {
      stats: rows.map((row) => ({
        day: row.day,
        environment: row.environment,
        result: row.result,
        attempts: Number(row.attempts),
      })),
      rowsRead: rows.reduce((sum, row) => sum + Number(row.rows), 0),
    };
  }
}
