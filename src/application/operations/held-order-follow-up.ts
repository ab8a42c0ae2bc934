import { Inject, Injectable } from '@nestjs/common';
import { nextHeldLookUp } from '../../domain/transaction/held-follow-up';
import { lastProviderWordOf } from '../../domain/transaction/last-provider-word';
import { transactionDecider } from '../../domain/transaction/transaction.decider';
import { TransactionEvent, transactionStream } from '../../domain/transaction/transaction.events';
import { CLOCK, Clock } from '../ports/clock.port';
import { EVENT_STORE, EventStore } from '../ports/event-store.port';
import { OrderLifecycle } from '../settlement/order-lifecycle';

/** How a held order is being followed at its provider (decision 0117). */
export interface HeldFollowUp {
  /** The provider's last recorded word on the order, and when it was given; null: it never answered. */
  lastWord: string | null;
  askedAt: string | null;
  /** When it is asked next; null once its horizon has passed (it then waits for a person), or while nothing was ever sent. */
  nextAskAt: string | null;
  /** Its provider's horizon: it is asked until then. */
  askedUntil: string;
}

@Injectable()
export class HeldOrderFollowUp {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly lifecycle: OrderLifecycle,
  ) {}

  async of(orderId: string): Promise<HeldFollowUp | null> {
    const events: readonly TransactionEvent[] = await this.store.readStream(transactionStream(orderId));
    const state = events.reduce(transactionDecider.evolve, transactionDecider.initialState);
    if (state.status !== 'DISPUTED' || !state.heldAt) return null;
    const word = lastProviderWordOf(events);
    const horizon = this.lifecycle.horizonOf(state);
    // Nothing sent yet: its submission's retries go on, and no look-up is scheduled.
    const next = state.providerMayHaveIt ? nextHeldLookUp(new Date(state.heldAt), this.clock.now(), horizon) : null;
    return {
      lastWord: word?.word ?? null,
      askedAt: word?.at ?? null,
      nextAskAt: next?.toISOString() ?? null,
      askedUntil: horizon.toISOString(),
    };
  }
}
