import { Inject, Injectable } from '@nestjs/common';
import { OPERATORS_STREAM } from '../../domain/back-office/operator.events';
import { OperatorsState, operatorsDecider } from '../../domain/back-office/operator.decider';
import { fold } from '../../domain/shared/decider';
import { EVENT_STORE, EventStore } from '../ports/event-store.port';

/** The back-office operators, folded from their stream on every read: a change made through any process counts at its next request. */
@Injectable()
export class OperatorDirectory {
  private known: { state: OperatorsState; revision: number } = {
    state: operatorsDecider.initialState,
    revision: -1,
  };

  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  async current(): Promise<{ state: OperatorsState; revision: number }> {
    const last = await this.store.readLastEvent(OPERATORS_STREAM);
    const head = last?.revision ?? -1;
    if (head === this.known.revision) return this.known;
    // A shorter stream than the one folded cannot happen in an append-only log; start over if it does.
    const from = head > this.known.revision ? this.known : { state: operatorsDecider.initialState, revision: -1 };
    const newer = await this.store.readStream(OPERATORS_STREAM, from.revision + 1);
    const state = fold({ initialState: from.state, evolve: operatorsDecider.evolve }, newer);
    const revision = newer.length ? newer[newer.length - 1].revision : from.revision;
    if (revision > this.known.revision) this.known = { state, revision };
    return { state, revision };
  }
}
