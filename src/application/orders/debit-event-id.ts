import { deterministicEventId, eventIdLedBySecond } from '../shared/event-ids';

/** An order id begins with the second it was made in, as eight hex digits after its prefix (decision 0113). */
const ORDER_ID_SECOND = /^[a-z]+_([0-9a-f]{8})[0-9a-f]{16}$/;

/**
 * The id of the wallet event that debits an order (decision 0166): led by the order's creation second, so each
 * wallet's debits go to the growing end of its part of the event-id index, which keeps a retried debit from being
 * stored twice. An order id without a second (none the service makes) gets the id debits had before.
 */
export function debitEventId(orderId: string): string {
  const second = ORDER_ID_SECOND.exec(orderId)?.[1];
  return second ? eventIdLedBySecond(second, orderId, 'WalletDebited') : legacyDebitEventId(orderId);
}

/** The ids a debit of `orderId` may have: the one debits have now, and the one releases before 0166 gave them. */
export function debitEventIds(orderId: string): readonly string[] {
  return [debitEventId(orderId), legacyDebitEventId(orderId)];
}

/** Whether `eventId` is the debit of `orderId`, by either of its ids. */
export function isDebitEventOf(orderId: string, eventId: string): boolean {
  return debitEventIds(orderId).includes(eventId);
}

const legacyDebitEventId = (orderId: string): string => deterministicEventId(orderId, 'WalletDebited');
