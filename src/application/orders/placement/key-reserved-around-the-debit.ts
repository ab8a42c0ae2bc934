import { Inject, Injectable } from '@nestjs/common';
import { Caller } from '../../auth/caller';
import { CLOCK, Clock } from '../../ports/clock.port';
import { IDEMPOTENCY_STORE, IdempotencyScope, IdempotencyStore } from '../../ports/idempotency-store.port';
import { KeyPlacement } from './key-placement';
import { OrderDebit, OrderDraft, PlacementAnswer } from './order-debit';
import { ReservedKeyPlacement } from './reserved-key-placement';
import { storedAnswer } from './stored-answer';

/**
 * The key placement of a store whose events cannot share a commit with the key table (EventStoreDB): a repeat of
 * an earlier request gets its first answer before anything is checked again (catalog, bill, balance); any other
 * request is checked and placed through ReservedKeyPlacement (reserve the key, debit, store the answer).
 */
@Injectable()
export class KeyReservedAroundTheDebit implements KeyPlacement {
  constructor(
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(IDEMPOTENCY_STORE) private readonly idempotency: IdempotencyStore,
    private readonly debit: OrderDebit,
    private readonly reserved: ReservedKeyPlacement,
  ) {}

  async place(
    caller: Caller,
    scope: IdempotencyScope,
    requestHash: string,
    checked: () => Promise<OrderDraft>,
  ): Promise<PlacementAnswer> {
    const replay = await storedAnswer(this.idempotency, this.debit, scope, requestHash, this.clock.now());
    return replay ?? this.reserved.place(caller, scope, requestHash, await checked());
  }
}
