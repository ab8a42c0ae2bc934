import { Inject, Injectable } from '@nestjs/common';
import { eventOfType } from '../../domain/shared/event-types';
import { Caller } from '../auth/caller';
import { CLOCK, Clock } from '../ports/clock.port';
import { IDEMPOTENCY_STORE, IdempotencyScope, IdempotencyStore } from '../ports/idempotency-store.port';
import { SERVICE_SETTINGS, ServiceSettings } from '../shared/service-settings';
import { ServiceError } from '../shared/service-error';
import { KEY_PLACEMENT, KeyPlacement } from './placement/key-placement';
import { OrderDebit, OrderDraft, PlacementAnswer } from './placement/order-debit';
import { OrderRouting, routedProductOf } from '../routing/order-routing';
import { KEY_USAGE, KeyUsage } from '../ports/key-usage.port';
import { requireTransact } from '../auth/key-scope';
import { countKeyRefusal } from '../auth/count-key-refusal';

export { OrderDraft, PlacementAnswer } from './placement/order-debit';

interface Running {
  requestHash: string;
  placed: Promise<PlacementAnswer>;
}

/**
 * The one money-moving path of topups and bill payments. The key placement of the event store (KEY_PLACEMENT) holds
 * the Idempotency-Key around the debit; here, identical requests of this process wait for the first one's answer.
 */
@Injectable()
export class OrderPlacement {
  /** Requests of this process by key: an identical one arriving meanwhile waits for the first's answer. */
  private readonly running = new Map<string, Running>();

  constructor(
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(IDEMPOTENCY_STORE) private readonly idempotency: IdempotencyStore,
    private readonly routing: OrderRouting,
    @Inject(SERVICE_SETTINGS) private readonly settings: ServiceSettings,
    private readonly debit: OrderDebit,
    @Inject(KEY_PLACEMENT) private readonly keys: KeyPlacement,
    @Inject(KEY_USAGE) private readonly usage: KeyUsage,
  ) {}

  /** `draft` checks the request and says what to debit, or throws the refusal (4xx). */
  async place(
    caller: Caller,
    idempotencyKey: string,
    requestHash: string,
    draft: () => Promise<OrderDraft>,
  ): Promise<PlacementAnswer> {
    try {
      requireTransact(caller);
      return await this.placeChecked(caller, idempotencyKey, requestHash, draft);
    } catch (error) {
      // A restricted key's refusals for its scope or caps are part of its usage.
      const refusedForKey =
        error instanceof ServiceError && (error.code === 'scope_forbidden' || error.code === 'key_cap_exceeded');
      if (caller.restriction && refusedForKey)
        await countKeyRefusal(this.usage, { keyId: caller.keyId, code: error.code, at: this.clock.now() });
      throw error;
    }
  }

  /**
   * A dry run (`validate_only`): every check of `place` up to the debit's decision, made against the
   * wallet as it is, with nothing written: no debit, no order, no webhook, and the Idempotency-Key
   * stays free (a key already bound to another request is refused as the real request would be).
   */
  async preview(
    caller: Caller,
    idempotencyKey: string,
    requestHash: string,
    draftOf: () => Promise<OrderDraft>,
  ): Promise<PlacementAnswer> {
    requireTransact(caller);
    const { partnerId, environment } = caller;
    const scope: IdempotencyScope = { partnerId, environment, key: idempotencyKey };
    const found = await this.idempotency.find(scope, this.clock.now());
    if (found && found.requestHash !== requestHash) {
      throw new ServiceError(
        'idempotency_conflict',
        'this Idempotency-Key was already used with a different request body',
      );
    }
    const draft = await this.checked(caller, draftOf);
    const decision = await this.debit.preview(caller, idempotencyKey, draft);
    if (!decision.ok) throw ServiceError.from(decision.error);
    return { body: this.debit.dryRunAnswerOf(eventOfType(decision.events[0], 'WalletDebited')), replayed: false };
  }

  private placeChecked(
    caller: Caller,
    idempotencyKey: string,
    requestHash: string,
    draft: () => Promise<OrderDraft>,
  ): Promise<PlacementAnswer> {
    const scope: IdempotencyScope = {
      partnerId: caller.partnerId,
      environment: caller.environment,
      key: idempotencyKey,
    };
    const id = JSON.stringify([scope.partnerId, scope.environment, scope.key]);
    const running = this.running.get(id);
    if (running) {
      const again = () => this.placeChecked(caller, idempotencyKey, requestHash, draft);
      return this.afterRunning(running, requestHash, again);
    }
    const placed = this.placeOnce(caller, scope, requestHash, draft);
    this.running.set(id, { requestHash, placed });
    return placed.finally(() => {
      if (this.running.get(id)?.placed === placed) this.running.delete(id);
    });
  }

  private placeOnce(
    caller: Caller,
    scope: IdempotencyScope,
    requestHash: string,
    draftOf: () => Promise<OrderDraft>,
  ): Promise<PlacementAnswer> {
    return this.keys.place(caller, scope, requestHash, () => this.checked(caller, draftOf));
  }

  /** The request's own checks, then where it goes upstream (its live route); nothing is debited before both pass. */
  private async checked(caller: Caller, draftOf: () => Promise<OrderDraft>): Promise<OrderDraft> {
    const draft = await draftOf();
    const route = await this.routing.routeForNewOrder(caller.environment, routedProductOf(draft.product));
    return { ...draft, route };
  }

  /** An identical request of this process is at work: its answer is this one's, or, if it was refused, this one is tried anew. */
  private async afterRunning(
    running: Running,
    requestHash: string,
    again: () => Promise<PlacementAnswer>,
  ): Promise<PlacementAnswer> {
    if (running.requestHash !== requestHash) {
      throw new ServiceError(
        'idempotency_conflict',
        'this Idempotency-Key was already used with a different request body',
      );
    }
    const outcome = await settledWithin(running.placed, this.settings.idempotencyWaitMs);
    if (outcome === 'still_running') {
      throw new ServiceError(
        'idempotency_conflict',
        'a request with this Idempotency-Key is still being processed; retry with the same key',
      );
    }
    return outcome.ok ? { body: outcome.value.body, replayed: true } : again();
  }
}

type Settled<T> = { ok: true; value: T } | { ok: false };

function settledWithin<T>(pending: Promise<T>, timeoutMs: number): Promise<Settled<T> | 'still_running'> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'still_running'>((resolve) => {
    timer = setTimeout(() => resolve('still_running'), timeoutMs);
  });
  const settled = pending.then(
    (value): Settled<T> => ({ ok: true, value }),
    (): Settled<T> => ({ ok: false }),
  );
  return Promise.race([settled, timeout]).finally(() => clearTimeout(timer));
}
