import { Inject, Injectable } from '@nestjs/common';
import { eventOfType } from '../../../domain/shared/event-types';
import { Caller } from '../../auth/caller';
import { CLOCK, Clock } from '../../ports/clock.port';
import { IDEMPOTENCY_STORE, IdempotencyScope, IdempotencyStore } from '../../ports/idempotency-store.port';
import { IdempotencyKeyTakenError } from '../../ports/key-binding-append.port';
import { SECRET_GENERATOR, SecretGenerator } from '../../ports/secrets.port';
import { ServiceError } from '../../shared/service-error';
import { KeyPlacement } from './key-placement';
import { DebitOutcome, OrderDebit, OrderDraft, PlacementAnswer } from './order-debit';
import { ReservedKeyPlacement } from './reserved-key-placement';
import { storedAnswer } from './stored-answer';

/**
 * For stores that bind Idempotency-Keys in the commit of their events (SQL): key, answer and debit are one commit,
 * so a first request costs no reservation. A key found bound already goes through ReservedKeyPlacement; a refused
 * request whose key was used before gets the first answer instead.
 */
@Injectable()
export class KeyBoundWithTheDebit implements KeyPlacement {
  constructor(
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(IDEMPOTENCY_STORE) private readonly idempotency: IdempotencyStore,
    @Inject(SECRET_GENERATOR) private readonly secrets: SecretGenerator,
    private readonly debit: OrderDebit,
    private readonly reserved: ReservedKeyPlacement,
  ) {}

  async place(
    caller: Caller,
    scope: IdempotencyScope,
    requestHash: string,
    checked: () => Promise<OrderDraft>,
  ): Promise<PlacementAnswer> {
    let draft: OrderDraft;
    try {
      draft = await checked();
    } catch (refusal) {
      const replay = await storedAnswer(this.idempotency, this.debit, scope, requestHash, this.clock.now());
      if (replay) return replay;
      throw refusal;
    }
    const orderId = this.secrets.newId('ord');
    let outcome: DebitOutcome;
    try {
      outcome = await this.debit.run(caller, orderId, scope.key, draft, { scope, requestHash });
    } catch (error) {
      if (!(error instanceof IdempotencyKeyTakenError)) throw error;
      // Used before: a repeat, another body, a request still at work elsewhere, or a key past its window.
      return this.reserved.place(caller, scope, requestHash, draft);
    }
    const { result, boundAnswer } = outcome;
    if (!result.ok) {
      const replay = await storedAnswer(this.idempotency, this.debit, scope, requestHash, this.clock.now());
      if (replay) return replay;
      throw ServiceError.from(result.error);
    }
    // The body bound with the key: the first answer and every replay are the same bytes.
    return { body: boundAnswer ?? this.debit.answerOf(eventOfType(result.event, 'WalletDebited')), replayed: false };
  }
}
