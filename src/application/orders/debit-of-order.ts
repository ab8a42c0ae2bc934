import { RecordedEvent, EventStore } from '../ports/event-store.port';
import { deterministicEventId } from '../shared/event-ids';
import { storedEvent } from '../shared/stored-event';

/** The debit that placed an order, read from the log (null if the order was never debited). */
export function debitOfOrder(store: EventStore, orderId: string): Promise<RecordedEvent | null> {
  return storedEvent(store, orderId, deterministicEventId(orderId, 'WalletDebited'));
}
