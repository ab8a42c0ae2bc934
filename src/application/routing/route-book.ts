import { Inject, Injectable } from '@nestjs/common';
import { fold } from '../../domain/shared/decider';
import { ProductRef, RouteTarget, productKey } from '../../domain/routing/route';
import { ROUTES_STREAM } from '../../domain/routing/routing.events';
import { RoutingState, routingDecider } from '../../domain/routing/routing.decider';
import { EVENT_STORE, EventStore } from '../ports/event-store.port';

/**
 * The current routes, folded from the routes stream. The fold is kept and brought up to date
 * from the stream's newest revision (one index lookup) on every read, so a route set through any
 * process applies to the very next order, with no projection to wait for.
 */
@Injectable()
export class RouteBook {
  private known: { state: RoutingState; revision: number } = { state: routingDecider.initialState, revision: -1 };

  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  async routeOf(product: ProductRef): Promise<RouteTarget | null> {
    const { state } = await this.current();
    return state.routes.get(productKey(product)) ?? null;
  }

  async current(): Promise<{ state: RoutingState; revision: number }> {
    const last = await this.store.readLastEvent(ROUTES_STREAM);
    const head = last?.revision ?? -1;
    if (head === this.known.revision) return this.known;
    // A shorter stream than the one folded cannot happen in an append-only log; start over if it does.
    const from = head > this.known.revision ? this.known : { state: routingDecider.initialState, revision: -1 };
    const newer = await this.store.readStream(ROUTES_STREAM, from.revision + 1);
    const state = fold({ initialState: from.state, evolve: routingDecider.evolve }, newer);
    const revision = newer.length ? newer[newer.length - 1].revision : from.revision;
    if (revision > this.known.revision) this.known = { state, revision };
    return { state, revision };
  }
}
