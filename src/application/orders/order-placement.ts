import { Inject, Injectable } from '@nestjs/common';
import { Money } from '../../domain/money/money';
import { WalletDebited } from '../../domain/wallet/wallet.events';
import { OrderProduct } from '../../domain/wallet/order-product';
import { Caller } from '../auth/caller';
import { CLOCK, Clock } from '../ports/clock.port';
import { EVENT_STORE, EventStore, GlobalPosition } from '../ports/event-store.port';
import { IDEMPOTENCY_STORE, IdempotencyScope, IdempotencyStore, Reservation } from '../ports/idempotency-store.port';
import { PROVIDER_DIRECTORY, ProviderDirectory } from '../ports/provider-gateway.port';
import { PROJECTION_BARRIER, ProjectionBarrier } from '../ports/read-models.port';
import { SECRET_GENERATOR, SecretGenerator } from '../ports/secrets.port';
import { deterministicEventId } from '../shared/event-ids';
import { metadata } from '../shared/event-envelope';
import { SERVICE_SETTINGS, ServiceSettings } from '../shared/service-settings';
import { ServiceError } from '../shared/service-error';
import { WalletCommandProcessor } from '../wallets/wallet-command-processor';
import { OrderFacts, orderResource } from './order-response';

export interface OrderRequest {
  caller: Caller;
  idempotencyKey: string;
  requestHash: string;
  amount: Money;
  reference: string | null;
  product: OrderProduct;
}

interface EarlierDebit {
  order: OrderFacts;
  position: GlobalPosition;
}

/** The body is kept as sent, so a replay is byte-for-byte the first answer. */
export interface PlacedOrder {
  body: string;
  replayed: boolean;
}

/**
 * The one money-moving path shared by topups and bill payments: claim the
 * Idempotency-Key, debit the wallet (the order travels in the debit event), wait until
 * the read models show it, and remember the answer for replays.
 */
@Injectable()
export class OrderPlacement {
  constructor(
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(IDEMPOTENCY_STORE) private readonly idempotency: IdempotencyStore,
    @Inject(PROVIDER_DIRECTORY) private readonly providers: ProviderDirectory,
    @Inject(PROJECTION_BARRIER) private readonly barrier: ProjectionBarrier,
    @Inject(SECRET_GENERATOR) private readonly secrets: SecretGenerator,
    @Inject(SERVICE_SETTINGS) private readonly settings: ServiceSettings,
    private readonly wallets: WalletCommandProcessor,
  ) {}

  /**
   * The stored answer for a repeated request, checked before anything that may have changed
   * since (bill freshness, catalog, provider): a replay within 24 h is always the first answer.
   * A key bound to a different request is refused at once.
   */
  async replay(caller: Caller, idempotencyKey: string, requestHash: string): Promise<PlacedOrder | null> {
    const found = await this.idempotency.find({ partnerId: caller.partnerId, environment: caller.environment, key: idempotencyKey }, this.clock.now());
    if (!found) return null;
    if (found.requestHash !== requestHash) {
      throw new ServiceError('idempotency_conflict', 'this Idempotency-Key was already used with a different request body');
    }
    return found.response ? { body: found.response.body, replayed: true } : null;
  }

  async place(request: OrderRequest): Promise<PlacedOrder> {
    const { caller } = request;
    if (!this.providers.forEnvironment(caller.environment)) {
      throw new ServiceError('provider_unavailable', `no ${caller.environment} provider is configured; no money was moved`);
    }
    const scope: IdempotencyScope = { partnerId: caller.partnerId, environment: caller.environment, key: request.idempotencyKey };
    const reservation = await this.reserve(scope, request.requestHash);
    switch (reservation.outcome) {
      case 'replay':
        return { body: reservation.response.body, replayed: true };
      case 'conflict':
        throw new ServiceError('idempotency_conflict', 'this Idempotency-Key was already used with a different request body');
      case 'in_flight':
        throw new ServiceError('idempotency_conflict', 'a request with this Idempotency-Key is still being processed; retry with the same key');
      case 'resumed': {
        // The first request may have debited before it died: the log, not a read model, says so.
        const earlier = await this.debitedOrder(reservation.orderId);
        if (earlier) return this.rememberEarlier(scope, earlier);
        return this.debit(scope, request, reservation.orderId);
      }
      case 'reserved':
        return this.debit(scope, request, reservation.orderId);
    }
  }

  private async debit(scope: IdempotencyScope, request: OrderRequest, orderId: string): Promise<PlacedOrder> {
    const { caller } = request;
    const now = this.clock.now();
    const result = await this.wallets.execute(caller.partnerId, caller.environment, {
      command: {
        type: 'DebitWallet',
        orderId,
        amount: request.amount,
        reference: request.reference,
        idempotencyKey: request.idempotencyKey,
        product: request.product,
        at: now.toISOString(),
      },
      eventId: deterministicEventId(orderId, 'WalletDebited'),
      metadata: metadata({
        partnerId: caller.partnerId,
        environment: caller.environment,
        correlationId: orderId,
        causationId: caller.requestId,
        actor: { type: 'partner_key', id: caller.keyId },
        at: now,
      }),
    });
    if (!result.ok || result.deduplicated) {
      // A refusal may only be a late view: another request holding this key may have debited the order meanwhile.
      const earlier = await this.debitedOrder(orderId);
      if (earlier) return this.rememberEarlier(scope, earlier);
      if (result.ok) throw new Error(`order ${orderId} was debited but its debit cannot be read`);
      await this.idempotency.release(scope, orderId);
      throw ServiceError.from(result.error);
    }
    const debited = result.event as WalletDebited;
    // The answer is stored while the read models catch up: both must be done before it is sent.
    const [placed] = await Promise.all([
      this.remember(scope, {
        orderId,
        product: debited.data.product,
        amount: debited.data.amount,
        currency: debited.data.currency,
        balanceAfter: debited.data.balanceAfter,
        reference: debited.data.reference,
        createdAt: debited.data.placedAt,
      }),
      this.barrier.waitFor(result.position),
    ]);
    return placed;
  }

  private async remember(scope: IdempotencyScope, order: OrderFacts): Promise<PlacedOrder> {
    const body = JSON.stringify(orderResource(order));
    await this.idempotency.complete(scope, order.orderId, { statusCode: 200, body });
    return { body, replayed: false };
  }

  /** An answer built from a debit made earlier: like any answer, sent only once the read models show that debit. */
  private async rememberEarlier(scope: IdempotencyScope, earlier: EarlierDebit): Promise<PlacedOrder> {
    const [placed] = await Promise.all([this.remember(scope, earlier.order), this.barrier.waitFor(earlier.position)]);
    return placed;
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

  /** The order as its debit event recorded it, and where the debit is in the log, if the order was debited. */
  private async debitedOrder(orderId: string): Promise<EarlierDebit | null> {
    const debitId = deterministicEventId(orderId, 'WalletDebited');
    const debit = (await this.store.readByCorrelationId(orderId)).find((event) => event.eventId === debitId);
    if (!debit) return null;
    const data = (debit.data as WalletDebited['data']);
    return {
      order: {
        orderId,
        product: data.product,
        amount: data.amount,
        currency: data.currency,
        balanceAfter: data.balanceAfter,
        reference: data.reference,
        createdAt: data.placedAt,
      },
      position: debit.position,
    };
  }

}
