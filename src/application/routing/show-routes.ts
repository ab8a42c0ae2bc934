import { Inject } from '@nestjs/common';
import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { CORRIDORS, Corridor } from '../../domain/corridor/corridor';
import { productKey } from '../../domain/routing/route';
import { ROUTES_STREAM, RoutingEvent } from '../../domain/routing/routing.events';
import { CATALOG, Catalog } from '../ports/catalog.port';
import { EVENT_STORE, EventStore, RecordedEvent } from '../ports/event-store.port';
import { PROVIDER_DIRECTORY, ProviderDirectory } from '../ports/provider-gateway.port';

export interface RouteRow {
  kind: 'operator' | 'biller';
  id: number;
  name: string;
  corridor: string;
  provider: string | null;
  upstream_id: string | null;
  /** Whether the route's provider is configured in this service (an order needs it). */
  provider_configured: boolean | null;
  changed_at: string | null;
  changed_by: RecordedEvent['metadata']['actor'] | null;
}

/** Every operator and biller with its live route, and how many are routed. */
export interface RoutesResource {
  routed: number;
  unrouted: number;
  routes: RouteRow[];
}

export class ShowRoutes extends Query<RoutesResource> {}

/** Every operator and biller of the catalog with its live route (or none), and who last changed it. */
@QueryHandler(ShowRoutes)
export class ShowRoutesHandler implements IQueryHandler<ShowRoutes> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CATALOG) private readonly catalog: Catalog,
    @Inject(PROVIDER_DIRECTORY) private readonly providers: ProviderDirectory,
  ) {}

  async execute(): Promise<RoutesResource> {
    const latest = new Map<string, RecordedEvent<RoutingEvent>>();
    for (const event of await this.store.readStream(ROUTES_STREAM))
      latest.set(productKey({ kind: event.data.kind, id: event.data.productId }), event);
    const corridors = Object.keys(CORRIDORS) as Corridor[];
    const products = [
      ...corridors.flatMap((corridor) =>
        this.catalog.operators(corridor).map((entry) => ({ kind: 'operator' as const, entry })),
      ),
      ...corridors.flatMap((corridor) =>
        this.catalog.billers(corridor).map((entry) => ({ kind: 'biller' as const, entry })),
      ),
    ];
    const routes = products.map(({ kind, entry }): RouteRow => {
      const event = latest.get(productKey({ kind, id: entry.id }));
      const set = event?.type === 'RouteSet' ? event : null;
      const provider = set ? set.data.provider : null;
      return {
        kind,
        id: entry.id,
        name: entry.name,
        corridor: entry.corridor,
        provider,
        upstream_id: set ? set.data.upstreamId : null,
        provider_configured: provider === null ? null : this.providers.live(provider) !== null,
        changed_at: event?.metadata.occurredAt ?? null,
        changed_by: event?.metadata.actor ?? null,
      };
    });
    const routed = routes.filter((route) => route.provider !== null).length;
    return { routed, unrouted: routes.length - routed, routes };
  }
}

/** One route change: when, who, and the event's data (what it was before). */
export interface RouteChangeResource {
  revision: number;
  event_type: string;
  occurred_at: string;
  actor: RecordedEvent['metadata']['actor'];
  data: RecordedEvent['data'];
}

export interface RouteHistoryResource {
  events: RouteChangeResource[];
}

export class RouteHistory extends Query<RouteHistoryResource> {}

/** Every route change in order: when, who, what it was before. */
@QueryHandler(RouteHistory)
export class RouteHistoryHandler implements IQueryHandler<RouteHistory> {
  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  async execute(): Promise<RouteHistoryResource> {
    const events = await this.store.readStream(ROUTES_STREAM);
    return {
      events: events.map((event) => ({
        revision: event.revision,
        event_type: event.type,
        occurred_at: event.metadata.occurredAt,
        actor: event.metadata.actor,
        data: event.data,
      })),
    };
  }
}
