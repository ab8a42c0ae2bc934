import { Caller } from '../../auth/caller';
import { IdempotencyScope } from '../../ports/idempotency-store.port';
import { OrderDraft, PlacedOrder } from './order-debit';

/**
 * How an order's Idempotency-Key is held while its debit is written. One strategy per event store, chosen when
 * the store is wired (KEY_PLACEMENT): where the store binds keys in the commit of its events (KeyBindingAppend,
 * the SQL stores) the key, its answer and the debit are one write (KeyBoundWithTheDebit); otherwise (EventStoreDB)
 * the key is reserved before the debit and answered after it (KeyReservedAroundTheDebit).
 */
export interface KeyPlacement {
  /**
   * Places the order under the key, or answers a repeat of an earlier request with its first answer (the same key
   * with another body is 409 `idempotency_conflict`). `checked` runs the request's own checks and its routing and
   * says what to debit, or throws the refusal.
   */
  place(
    caller: Caller,
    scope: IdempotencyScope,
    requestHash: string,
    checked: () => Promise<OrderDraft>,
  ): Promise<PlacedOrder>;
}

export const KEY_PLACEMENT = Symbol('KeyPlacement');
