import { IdempotencyScope, IdempotencyStore } from '../../ports/idempotency-store.port';
import { ServiceError } from '../../shared/service-error';
import { OrderDebit, PlacementAnswer } from './order-debit';

/** The stored first answer of a repeated request; a key bound to a different request is refused at once. */
export async function storedAnswer(
  idempotency: IdempotencyStore,
  debit: OrderDebit,
  scope: IdempotencyScope,
  requestHash: string,
  now: Date,
): Promise<PlacementAnswer | null> {
  const found = await idempotency.find(scope, now);
  if (!found) return null;
  if (found.requestHash !== requestHash) {
    throw new ServiceError(
      'idempotency_conflict',
      'this Idempotency-Key was already used with a different request body',
    );
  }
  return found.answer ? { body: await debit.replayOf(found.answer), replayed: true } : null;
}
