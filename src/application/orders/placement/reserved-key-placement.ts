import { Inject, Injectable } from '@nestjs/common';
import { eventOfType } from '../../../domain/shared/event-types';
import { WalletDebited } from '../../../domain/wallet/wallet.events';
import { Caller } from '../../auth/caller';
import { CLOCK, Clock } from '../../ports/clock.port';
import { IDEMPOTENCY_STORE, IdempotencyScope, IdempotencyStore, Reservation } from '../../ports/idempotency-store.port';
import { SECRET_GENERATOR, SecretGenerator } from '../../ports/secrets.port';
import { SERVICE_SETTINGS, ServiceSettings } from '../../shared/service-settings';
import { ServiceError } from '../../shared/service-error';
import { OrderDebit, OrderDraft, PlacementAnswer } from './order-debit';

/**
 * Reserves the Idempotency-Key for an order id, debits, stores the answer: for EventStoreDB, and for keys found bound
 * already. A reservation left by a dead request is taken over after its lease; the log says whether it debited.
 */
@Injectable()
export class ReservedKeyPlacement {
  constructor(
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(IDEMPOTENCY_STORE) private readonly idempotency: IdempotencyStore,
    @Inject(SECRET_GENERATOR) private readonly secrets: SecretGenerator,
    @Inject(SERVICE_SETTINGS) private readonly settings: ServiceSettings,
    private readonly debit: OrderDebit,
  ) {}

  async place(
    caller: Caller,
    scope: IdempotencyScope,
    requestHash: string,
    draft: OrderDraft,
  ): Promise<PlacementAnswer> {
    const reservation = await this.reserve(scope, requestHash);
    switch (reservation.outcome) {
      case 'replay':
        return { body: await this.debit.replayOf(reservation.answer), replayed: true };
      case 'conflict':
        throw new ServiceError(
          'idempotency_conflict',
          'this Idempotency-Key was already used with a different request body',
        );
      case 'in_flight':
        throw new ServiceError(
          'idempotency_conflict',
          'a request with this Idempotency-Key is still being processed; retry with the same key',
        );
      case 'resumed': {
        // The first request may have debited before it died.
        const earlier = await this.debit.earlier(reservation.orderId);
        if (earlier) return this.rememberEarlier(scope, earlier);
        return this.debitReserved(caller, scope, draft, reservation);
      }
      case 'reserved':
        return this.debitReserved(caller, scope, draft, reservation);
    }
  }

  private async debitReserved(
    caller: Caller,
    scope: IdempotencyScope,
    draft: OrderDraft,
    { orderId, lease }: { orderId: string; lease: string },
  ): Promise<PlacementAnswer> {
    const { result } = await this.debit.run(caller, orderId, scope.key, draft);
    if (!result.ok || result.deduplicated) {
      // A refusal may only be a late view: another request holding this key may have debited the order meanwhile.
      const earlier = await this.debit.earlier(orderId);
      if (earlier) return this.rememberEarlier(scope, earlier);
      if (result.ok) throw new Error(`order ${orderId} was debited but its debit cannot be read`);
      await this.idempotency.release(scope, orderId, lease);
      throw ServiceError.from(result.error);
    }
    const body = this.debit.answerOf(eventOfType(result.event, 'WalletDebited'));
    await this.remember(scope, orderId, body);
    return { body, replayed: false };
  }

  /** The answer of a debit made earlier under this key, stored now. */
  private async rememberEarlier(scope: IdempotencyScope, earlier: WalletDebited): Promise<PlacementAnswer> {
    const body = this.debit.answerOf(earlier);
    await this.remember(scope, earlier.data.orderId, body);
    return { body, replayed: false };
  }

  private async remember(scope: IdempotencyScope, orderId: string, body: string): Promise<void> {
    await this.idempotency.complete(scope, orderId, { statusCode: 200, body });
  }

  /** An identical request still in flight is waited for briefly, so retries get the same order. */
  private async reserve(scope: IdempotencyScope, hash: string): Promise<Reservation> {
    const deadline = Date.now() + this.settings.idempotencyWaitMs;
    let pause = 5;
    for (;;) {
      const reservation = await this.idempotency.reserve(scope, hash, this.secrets.newId('ord'), this.clock.now());
      if (reservation.outcome !== 'in_flight' || Date.now() >= deadline) return reservation;
      await new Promise((resolve) => setTimeout(resolve, pause));
      pause = Math.min(pause * 2, 50);
    }
  }
}
