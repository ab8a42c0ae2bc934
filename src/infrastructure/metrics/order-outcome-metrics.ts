import { RecordedEvent } from '../../application/ports/event-store.port';
import { BatchScope } from '../projections/sql-projection';
import { ORDER_VIEWS_OF_BATCH } from '../read-models/order-views-of-batch';
import { SqlExecutor } from '../sql/sql-database';
import { serviceMetrics } from './service-metrics';

interface OutcomeOrder {
  kind: string;
  createdAt: string;
}

/**
 * Counts outcomes, refunds and holds from the live projector's batches, each applied once across processes (a rebuild
 * counts nothing). The orders' kind and creation come from the rows the batch projected; rm_orders is read only for
 * an order the batch did not.
 */
export function countOrderOutcomes(
  db: SqlExecutor,
  onError: (error: unknown) => void,
): (events: readonly RecordedEvent[], batch: BatchScope) => void {
  return (events, batch) => {
    const outcomes: { orderId: string; outcome: 'success' | 'failed'; at: string }[] = [];
    for (const event of events) {
      if (event.type === 'WalletRefunded') serviceMetrics.refunds.inc();
      else if (event.type === 'TransactionDisputed') serviceMetrics.ordersHeld.inc();
      else if (event.type === 'TransactionSettled')
        outcomes.push({ orderId: event.data.orderId, outcome: 'success', at: event.data.settledAt });
      else if (event.type === 'TransactionFailed')
        outcomes.push({ orderId: event.data.orderId, outcome: 'failed', at: event.data.failedAt });
    }
    if (outcomes.length > 0) observe(db, batch, outcomes).catch(onError);
  };
}

async function observe(
  db: SqlExecutor,
  batch: BatchScope,
  outcomes: readonly { orderId: string; outcome: 'success' | 'failed'; at: string }[],
): Promise<void> {
  const orders = new Map<string, OutcomeOrder>();
  const projected = batch.made(ORDER_VIEWS_OF_BATCH);
  for (const { orderId } of outcomes) {
    const view = projected?.inHand(orderId);
    if (view) orders.set(orderId, { kind: view.product.kind, createdAt: view.createdAt });
  }
  // An order the batch looked for and did not find is not looked for again.
  const unread = outcomes.map((outcome) => outcome.orderId).filter((orderId) => !projected?.knows(orderId));
  if (unread.length > 0) {
    const rows = await db.query<{ order_id: string; kind: string; created_at: string }>(
      'SELECT order_id, kind, created_at::text AS created_at FROM rm_orders WHERE order_id = ANY($1::text[])',
      [unread],
    );
    for (const row of rows) orders.set(row.order_id, { kind: row.kind, createdAt: row.created_at });
  }
  for (const { orderId, outcome, at } of outcomes) {
    const order = orders.get(orderId);
    const labels = { kind: order?.kind ?? 'unknown', outcome };
    serviceMetrics.orderOutcomes.inc(labels);
    if (order)
      serviceMetrics.debitToOutcome.observe(labels, Math.max(0, (Date.parse(at) - Date.parse(order.createdAt)) / 1000));
  }
}
