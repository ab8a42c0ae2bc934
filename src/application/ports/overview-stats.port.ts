/** One row of the daily order counters (rm_order_daily_stats). */
export interface DailyOrderStat {
  day: string;
  environment: string;
  currency: string;
  operator: string;
  provider: string;
  /** placed, succeeded, failed, refunded or held */
  outcome: string;
  orders: number;
  amount: string;
  /** Successes by time from placing to settling (see `settlementBucketsMs`). */
  settleMsBuckets: number[];
}

/** One row of the webhook attempt counters (webhook_daily_stats), shards added up. */
export interface DailyWebhookStat {
  day: string;
  environment: string;
  /** delivered, retrying (another attempt follows) or failed (the delivery is FAILED) */
  result: string;
  attempts: number;
}

/** The overview's reads: bounded by days and dimensions, never by the number of orders. */
export interface OverviewStats {
  /** Upper bounds of the settlement-time buckets, in ms; the last bucket takes everything above. */
  readonly settlementBucketsMs: readonly number[];
  dailyStats(fromDay: string): Promise<DailyOrderStat[]>;
  /** Orders held for an operator now (the held-orders index). */
  heldNow(): Promise<number>;
  /** Webhook attempts by day, environment and result since that day, and how many counter rows that read. */
  webhookStats(fromDay: string): Promise<{ stats: DailyWebhookStat[]; rowsRead: number }>;
}

export const OVERVIEW_STATS = Symbol('OverviewStats');
