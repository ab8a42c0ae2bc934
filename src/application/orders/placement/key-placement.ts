import { Caller } from '../../auth/caller';
import { IdempotencyScope } from '../../ports/idempotency-store.port';
import { OrderDraft, PlacementAnswer } from './order-debit';

/**
 * How an order's Idempotency-Key is held while its debit is written, one strategy per event store (KEY_PLACEMENT):
 * bound in the debit's commit where the store can (KeyBoundWithTheDebit), else reserved around it (EventStoreDB).
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
  ): Promise<PlacementAnswer>;
}

export const KEY_PLACEMENT = Symbol('KeyPlacement');
