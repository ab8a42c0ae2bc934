import { WalletDebited } from '../../domain/wallet/wallet.events';
import { parseWalletStreamId } from '../../domain/wallet/wallet.stream';
import { IDEMPOTENCY_WINDOW_MS } from '../ports/idempotency-store.port';
import { RecordedEvent } from '../ports/event-store.port';
import { KeyBinding } from '../ports/key-binding-append.port';

/**
 * Marks a key bound again from the log: the hash of the request's body is not in the log, so no request matches
 * it, and a retry with the key is answered 409 idempotency_conflict instead of being placed as a new order.
 */
export const REQUEST_HASH_NOT_IN_LOG = 'not in the log: bound again by data import';

/**
 * The Idempotency-Keys a moved history still binds: every debit placed less than 24 h before `now` carries its
 * key (WalletDebited.idempotencyKey), and the key must keep its order, so that a retry after the move cannot debit
 * a second time.
 */
export class KeyBindingsFromLog {
  private readonly debits: RecordedEvent<WalletDebited>[] = [];

  observe(event: RecordedEvent): void {
    if (event.type === 'WalletDebited') this.debits.push(event);
  }

  bindings(now: Date): KeyBinding[] {
    return this.debits.flatMap((event): KeyBinding[] => {
      const wallet = parseWalletStreamId(event.streamId);
      const data = event.data;
      const placedAt = Date.parse(data.placedAt);
      if (!wallet || now.getTime() - placedAt >= IDEMPOTENCY_WINDOW_MS) return [];
      return [
        {
          partnerId: wallet.partnerId,
          environment: wallet.environment,
          key: data.idempotencyKey,
          requestHash: REQUEST_HASH_NOT_IN_LOG,
          orderId: data.orderId,
          createdAt: data.placedAt,
          expiresAt: new Date(placedAt + IDEMPOTENCY_WINDOW_MS).toISOString(),
        },
      ];
    });
  }
}
