import { ProductKind, RouteTarget } from './route';
import { EventStream, EventTypeTable } from '../shared/event-types';

/** How a route came to be: set by hand, or applied from a provider's catalog (`provider sync --apply`). */
export type RouteSource = 'manual' | 'sync';

export type RouteSet = {
  type: 'RouteSet';
  data: {
    kind: ProductKind;
    productId: number;
    provider: string;
    upstreamId: string;
    previous: RouteTarget | null;
    source: RouteSource;
    setAt: string;
  };
};

export type RouteRemoved = {
  type: 'RouteRemoved';
  data: { kind: ProductKind; productId: number; previous: RouteTarget; reason: string; removedAt: string };
};

export type RoutingEvent = RouteSet | RouteRemoved;

export const ROUTING_EVENTS: EventTypeTable<RoutingEvent> = { RouteSet: true, RouteRemoved: true };

/** Every live route in one stream: a few hundred products, read whole and cached. */
export const ROUTES_STREAM_ID = 'provider-routes';
export const ROUTES_STREAM: EventStream<RoutingEvent> = { id: ROUTES_STREAM_ID, holds: ROUTING_EVENTS };
