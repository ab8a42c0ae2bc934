import { RecordedEvent } from '../../application/ports/event-store.port';
import { DailyOrderStat } from '../../application/ports/overview-stats.port';
import { parseWalletStreamId } from '../../domain/wallet/wallet.stream';
import { BatchScope, SqlProjection } from '../projections/sql-projection';
import { SqlExecutor } from '../sql/sql-database';
import { ORDER_VIEWS_OF_BATCH } from './order-views-of-batch';

/** Upper bounds (ms) of the settlement-time buckets; the last bucket takes everything above. */
export const SETTLEMENT_BUCKETS_MS = [
  500, 1_000, 2_000, 5_000, 10_000, 20_000, 40_000, 60_000, 120_000, 300_000, 900_000,
];

/**
 * The overview's counters per UTC day, environment, currency, product, provider and event: order count, amount and
 * settling-time histogram, so a week reads in a few hundred rows at any volume (decision 0109). Later events take the
 * order's dimensions from its row, projected first in the group (and kept in the batch's scope).
 */
export const orderDailyStatsProjection: SqlProjection = {
  name: 'order-daily-stats',
  schemaVersion: 1,
  schema: {
    name: 'order-daily-stats',
    sql: `
CREATE TABLE IF NOT EXISTS rm_order_daily_stats (
  day date NOT NULL,
  environment text NOT NULL,
  currency text NOT NULL,
  operator text NOT NULL,
  provider text NOT NULL,
  outcome text NOT NULL,
  orders bigint NOT NULL,
  amount numeric(24, 4) NOT NULL,
  settle_ms_buckets bigint[] NOT NULL,
  PRIMARY KEY (day, environment, currency, operator, provider, outcome)
);
`,
  },
  handles: new Set([
    'WalletDebited',
    'WalletRefunded',
    'TransactionSettled',
    'TransactionFailed',
    'TransactionDisputed',
  ]),

  apply(event: RecordedEvent, tx: SqlExecutor, batch: BatchScope): Promise<void> {
    return count([event], tx, batch);
  },

  applyBatch(events: readonly RecordedEvent[], tx: SqlExecutor, batch: BatchScope): Promise<void> {
    return count(events, tx, batch);
  },
};

/** What one event adds to one row: an order in `outcome`, its amount, and its settlement bucket if it settled. */
type Increment = Omit<DailyOrderStat, 'orders' | 'settleMsBuckets'> & { bucket: number | null };

const dayOf = (iso: string): string => iso.slice(0, 10);
const operatorOf = (product: { operatorId?: number; billerId?: number }): string =>
  product.operatorId !== undefined ? `operator ${product.operatorId}` : `biller ${product.billerId ?? '?'}`;
const bucketOf = (ms: number): number => {
  const index = SETTLEMENT_BUCKETS_MS.findIndex((bound) => ms <= bound);
  return index === -1 ? SETTLEMENT_BUCKETS_MS.length : index;
};

async function count(events: readonly RecordedEvent[], tx: SqlExecutor, batch: BatchScope): Promise<void> {
  const increments: Increment[] = [];
  const needOrder = new Map<string, { outcome: string; at: string }[]>();
  for (const event of events) {
    if (event.type === 'WalletDebited') {
      const wallet = parseWalletStreamId(event.streamId);
      if (!wallet) continue;
      const data = event.data;
      increments.push({
        day: dayOf(data.placedAt),
        environment: wallet.environment,
        currency: data.currency,
        operator: operatorOf(data.product),
        provider: data.route?.provider ?? (wallet.environment === 'sandbox' ? 'sandbox' : 'unrouted'),
        outcome: 'placed',
        amount: data.amount,
        bucket: null,
      });
      continue;
    }
    const later = laterOutcome(event);
    if (later) needOrder.set(later.orderId, [...(needOrder.get(later.orderId) ?? []), later]);
  }
  if (needOrder.size > 0) {
    const orders = await batch.of(ORDER_VIEWS_OF_BATCH, tx).of([...needOrder.keys()]);
    for (const order of orders.values())
      for (const { outcome, at } of needOrder.get(order.orderId) ?? [])
        increments.push({
          day: dayOf(at),
          environment: order.environment,
          currency: order.currency,
          operator: operatorOf(order.product),
          provider: order.provider ?? (order.environment === 'sandbox' ? 'sandbox' : 'unrouted'),
          outcome,
          amount: order.amount,
          bucket: outcome === 'succeeded' ? bucketOf(Date.parse(at) - Date.parse(order.createdAt)) : null,
        });
  }
  if (increments.length === 0) return;
  await tx.query(
    `INSERT INTO rm_order_daily_stats AS s (day, environment, currency, operator, provider, outcome, orders, amount, settle_ms_buckets)
     SELECT day, environment, currency, operator, provider, outcome, orders, amount,
            ARRAY(SELECT jsonb_array_elements_text(buckets)::bigint)
       FROM jsonb_to_recordset($1::jsonb)
         AS r(day date, environment text, currency text, operator text, provider text, outcome text, orders bigint,
              amount numeric, buckets jsonb)
     ON CONFLICT (day, environment, currency, operator, provider, outcome) DO UPDATE
       SET orders = s.orders + EXCLUDED.orders,
           amount = s.amount + EXCLUDED.amount,
           settle_ms_buckets = ARRAY(
             SELECT coalesce(s.settle_ms_buckets[k], 0) + coalesce(EXCLUDED.settle_ms_buckets[k], 0)
               FROM generate_series(1, cardinality(EXCLUDED.settle_ms_buckets)) AS k ORDER BY k)`,
    [JSON.stringify(grouped(increments))],
  );
}

/** One row per key of the batch: counts and buckets added up, amounts summed exactly (4 decimals, as rm_orders). */
function grouped(increments: readonly Increment[]): Record<string, unknown>[] {
  const rows = new Map<
    string,
    { key: Omit<Increment, 'amount' | 'bucket'>; orders: number; amount: bigint; buckets: number[] }
  >();
  for (const increment of increments) {
    const { amount, bucket, ...key } = increment;
    const id = JSON.stringify(key);
    const row = rows.get(id) ?? { key, orders: 0, amount: 0n, buckets: SETTLEMENT_BUCKETS_MS.map(() => 0).concat(0) };
    row.orders += 1;
    row.amount += scaled(amount);
    if (bucket !== null) row.buckets[bucket] += 1;
    rows.set(id, row);
  }
  return [...rows.values()].map((row) => ({
    ...row.key,
    orders: row.orders,
    amount: decimal(row.amount),
    buckets: row.buckets,
  }));
}

const SCALE = 4;
const scaled = (text: string): bigint => {
  const [whole, fraction = ''] = text.split('.');
  return BigInt(whole) * 10n ** BigInt(SCALE) + BigInt(fraction.padEnd(SCALE, '0').slice(0, SCALE) || '0');
};
const decimal = (value: bigint): string => {
  const text = value.toString().padStart(SCALE + 1, '0');
  return `${text.slice(0, -SCALE)}.${text.slice(-SCALE)}`;
};

function laterOutcome(event: RecordedEvent): { orderId: string; outcome: string; at: string } | null {
  switch (event.type) {
    case 'TransactionSettled':
      return { orderId: event.data.orderId, outcome: 'succeeded', at: event.data.settledAt };
    case 'TransactionFailed':
      return { orderId: event.data.orderId, outcome: 'failed', at: event.data.failedAt };
    case 'TransactionDisputed':
      return { orderId: event.data.orderId, outcome: 'held', at: event.data.disputedAt };
    case 'WalletRefunded':
      return { orderId: event.data.orderId, outcome: 'refunded', at: event.data.refundedAt };
    default:
      return null;
  }
}
