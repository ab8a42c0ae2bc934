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
 * order's dimensions from its row, projected first in the group (and kept in the batch's scope). Each row keeps the
 * log position of the last event it counted, so an event applied again (a replay) is not counted twice.
 */
export const orderDailyStatsProjection: SqlProjection = {
  name: 'order-daily-stats',
  // 2: the position of the last event counted, so that a replay counts nothing again.
  schemaVersion: 2,
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
  counted_commit bigint NOT NULL DEFAULT 0,
  counted_prepare bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (day, environment, currency, operator, provider, outcome)
);
ALTER TABLE rm_order_daily_stats ADD COLUMN IF NOT EXISTS counted_commit bigint NOT NULL DEFAULT 0;
ALTER TABLE rm_order_daily_stats ADD COLUMN IF NOT EXISTS counted_prepare bigint NOT NULL DEFAULT 0;
`,
  },
  handles: new Set([
    'WalletDebited',
    'WalletRefunded',
    'TransactionSettled',
    'TransactionFailed',
    'TransactionDisputed',
  ]),
  deferrableWrites: true,

  apply(event: RecordedEvent, tx: SqlExecutor, batch: BatchScope): Promise<void> {
    return count([event], tx, batch);
  },

  applyBatch(events: readonly RecordedEvent[], tx: SqlExecutor, batch: BatchScope): Promise<void> {
    return count(events, tx, batch);
  },
};

/** What one event adds to one row: an order in `outcome`, its amount, its settlement bucket if it settled, and where the event is in the log. */
type Increment = Omit<DailyOrderStat, 'orders' | 'settleMsBuckets'> & {
  bucket: number | null;
  commit_position: string;
  prepare_position: string;
};

const dayOf = (iso: string): string => iso.slice(0, 10);
const operatorOf = (product: { operatorId?: number; billerId?: number }): string =>
  product.operatorId !== undefined ? `operator ${product.operatorId}` : `biller ${product.billerId ?? '?'}`;
const bucketOf = (ms: number): number => {
  const index = SETTLEMENT_BUCKETS_MS.findIndex((bound) => ms <= bound);
  return index === -1 ? SETTLEMENT_BUCKETS_MS.length : index;
};

async function count(events: readonly RecordedEvent[], tx: SqlExecutor, batch: BatchScope): Promise<void> {
  const increments: Increment[] = [];
  const needOrder = new Map<string, { outcome: string; at: string; event: RecordedEvent }[]>();
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
        ...positionOf(event),
      });
      continue;
    }
    const later = laterOutcome(event);
    if (!later) continue;
    const ofOrder = needOrder.get(later.orderId) ?? [];
    ofOrder.push({ ...later, event });
    needOrder.set(later.orderId, ofOrder);
  }
  if (needOrder.size > 0) {
    const orders = await batch.of(ORDER_VIEWS_OF_BATCH, tx).of([...needOrder.keys()]);
    for (const order of orders.values())
      for (const { outcome, at, event } of needOrder.get(order.orderId) ?? [])
        increments.push({
          day: dayOf(at),
          environment: order.environment,
          currency: order.currency,
          operator: operatorOf(order.product),
          provider: order.provider ?? (order.environment === 'sandbox' ? 'sandbox' : 'unrouted'),
          outcome,
          amount: order.amount,
          bucket: outcome === 'succeeded' ? bucketOf(Date.parse(at) - Date.parse(order.createdAt)) : null,
          ...positionOf(event),
        });
  }
  if (increments.length === 0) return;
  await tx.query(COUNT_INCREMENTS, [JSON.stringify(increments)]);
}

const positionOf = (event: RecordedEvent): Pick<Increment, 'commit_position' | 'prepare_position'> => ({
  commit_position: event.position.commit.toString(),
  prepare_position: event.position.prepare.toString(),
});

const KEY = 'day, environment, currency, operator, provider, outcome';

/**
 * Adds up, per row, the increments of events after the last one the row counted (all of them, for a new row), and
 * moves the row's mark to the last of them. The batch's events come in log order and each row is written by one
 * batch at a time (the projector's checkpoint lock), so an event is counted once however often it is applied.
 */
const COUNT_INCREMENTS = `
WITH increments AS (
  SELECT * FROM jsonb_to_recordset($1::jsonb)
    AS i(day date, environment text, currency text, operator text, provider text, outcome text, amount numeric,
         bucket integer, commit_position bigint, prepare_position bigint)
), uncounted AS (
  SELECT i.* FROM increments i
    LEFT JOIN rm_order_daily_stats s USING (${KEY})
   WHERE s.day IS NULL OR (i.commit_position, i.prepare_position) > (s.counted_commit, s.counted_prepare)
)
INSERT INTO rm_order_daily_stats AS s (${KEY}, orders, amount, settle_ms_buckets, counted_commit, counted_prepare)
SELECT ${KEY}, count(*), sum(amount),
       ARRAY[${[...SETTLEMENT_BUCKETS_MS, null].map((_, k) => `count(*) FILTER (WHERE bucket = ${k})`).join(', ')}]::bigint[],
       (array_agg(commit_position ORDER BY commit_position DESC, prepare_position DESC))[1],
       (array_agg(prepare_position ORDER BY commit_position DESC, prepare_position DESC))[1]
  FROM uncounted
 GROUP BY ${KEY}
ON CONFLICT (${KEY}) DO UPDATE
  SET orders = s.orders + EXCLUDED.orders,
      amount = s.amount + EXCLUDED.amount,
      settle_ms_buckets = ARRAY(
        SELECT coalesce(s.settle_ms_buckets[k], 0) + coalesce(EXCLUDED.settle_ms_buckets[k], 0)
          FROM generate_series(1, cardinality(EXCLUDED.settle_ms_buckets)) AS k ORDER BY k),
      counted_commit = EXCLUDED.counted_commit,
      counted_prepare = EXCLUDED.counted_prepare`;

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
