import { SqlExecutor } from '../sql/sql-database';
import { ORDER_DEBITS, ORDER_DEBIT_TYPE } from './sql-event-store.schema';

/** An order's debit, which the log keeps unique by its order instead of by its id (decision 0174). */
export const isOrderDebit = (event: { type: string }): boolean => event.type === ORDER_DEBIT_TYPE;

export interface StoredDebit {
  order_id: string;
  stream_id: string;
  event_id: string;
  event_type: string;
}

/**
 * The debits the log holds for these orders, one each at most, through the index that keeps them unique. By the order
 * alone: a plan that also used a stream's key would walk the wallet's stream whole.
 */
export function storedDebitsOf(db: SqlExecutor, orderIds: readonly string[]): Promise<StoredDebit[]> {
  return db.query<StoredDebit>(
    `SELECT metadata->>'correlationId' AS order_id, stream_id, event_id::text AS event_id, event_type FROM es_events
      WHERE metadata->>'correlationId' = ANY($1::text[]) AND ${ORDER_DEBITS}`,
    [orderIds],
  );
}
