import { WalletDebited } from '../../domain/wallet/wallet.events';
import { RecordedEvent, oneOf } from '../ports/event-store.port';
import { EventsByCorrelation } from '../ports/events-by-correlation.port';
import { debitEventIds } from './debit-event-id';

/** The debit that placed an order, read from the log (null if the order was never debited). */
export async function debitOfOrder(
  store: EventsByCorrelation,
  orderId: string,
): Promise<RecordedEvent<WalletDebited> | null> {
  return debitAmong(await store.readByCorrelationId(orderId), orderId);
}

/** The order's debit among the events of its correlation id (null if it is not there). */
export function debitAmong(history: readonly RecordedEvent[], orderId: string): RecordedEvent<WalletDebited> | null {
  const ids = debitEventIds(orderId);
  const stored = history.find((event) => ids.includes(event.eventId));
  return stored ? oneOf({ WalletDebited: true }, stored) : null;
}
