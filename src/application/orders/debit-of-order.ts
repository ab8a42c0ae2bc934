import { WalletDebited } from '../../domain/wallet/wallet.events';
import { RecordedEvent, oneOf } from '../ports/event-store.port';
import { EventsByCorrelation } from '../ports/events-by-correlation.port';
import { deterministicEventId } from '../shared/event-ids';
import { storedEvent } from '../shared/stored-event';

/** The debit that placed an order, read from the log (null if the order was never debited). */
export async function debitOfOrder(
  store: EventsByCorrelation,
  orderId: string,
): Promise<RecordedEvent<WalletDebited> | null> {
  const stored = await storedEvent(store, orderId, deterministicEventId(orderId, 'WalletDebited'));
  return stored ? oneOf({ WalletDebited: true }, stored) : null;
}
