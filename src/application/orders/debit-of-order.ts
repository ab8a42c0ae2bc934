import { RecordedEvent, EventStore } from '../ports/event-store.port';
import { deterministicEventId } from '../shared/event-ids';

/** The debit that placed an order, read from the log (null if the order was never debited). */
export async function debitOfOrder(store: EventStore, orderId: string): Promise<RecordedEvent | null> {
  const debitId = deterministicEventId(orderId, 'WalletDebited');
  return (await store.readByCorrelationId(orderId)).find((event) => event.eventId === debitId) ?? null;
}
