import { RecordedEvent } from '../../application/ports/event-store.port';
import { SqlExecutor } from '../sql/sql-database';
import { serviceMetrics } from './service-metrics';

/** Counts outcomes, refunds and holds from the live projector's batches, each applied once across processes (a rebuild counts nothing). */
export function countOrderOutcomes(
  db: SqlExecutor,
  onError: (error: unknown) => void,
): (events: readonly RecordedEvent[]) => void {
  return (events) => {
    const outcomes: { orderId: string; outcome: 'success' | 'failed'; at: string }[] = [];
    for (const event of events) {
      if (event.type === 'WalletRefunded') serviceMetrics.refunds.inc();
      else if (event.type === 'TransactionDisputed') serviceMetrics.ordersHeld.inc();
      else if (event.type === 'TransactionSettled')
        outcomes.push({ orderId: event.data.orderId, outcome: 'success', at: event.data.settledAt });
      else if (event.type === 'TransactionFailed')
        outcomes.push({ orderId: event.data.orderId, outcome: 'failed', at: event.data.failedAt });
    }
    if (outcomes.length > 0) observe(db, outcomes).catch(onError);
  };
}

async function observe(
  db: SqlExecutor,
  outcomes: readonly { orderId: string; outcome: 'success' | 'failed'; at: string }[],
): Promise<void> {
  const rows = await db.query<{ order_id: string; kind: string; created_at: Date | string }>(
    'SELECT order_id, kind, created_at FROM rm_orders WHERE order_id = ANY($1::text[])',
    [outcomes.map((outcome) => outcome.orderId)],
  );
  const orders = new Map(rows.map((row) => [row.order_id, row]));
  for (const { orderId, outcome, at } of outcomes) {
    const order = orders.get(orderId);
    const labels = { kind: order?.kind ?? 'unknown', outcome };
    serviceMetrics.orderOutcomes.inc(labels);
    if (order)
      serviceMetrics.debitToOutcome.observe(
        labels,
        Math.max(0, (Date.parse(at) - new Date(order.created_at).getTime()) / 1000),
      );
  }
}
