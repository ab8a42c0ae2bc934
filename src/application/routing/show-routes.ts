import { Inject } from '@nestjs/common';
import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { CORRIDORS, Corridor } from '../../domain/corridor/corridor';
import { ProductKind, productKey } from '../../domain/routing/route';
import { ROUTES_STREAM, RoutingEvent } from '../../domain/routing/routing.events';
import { CATALOG, Catalog } from '../ports/catalog.port';
import { EVENT_STORE, EventStore, RecordedEvent } from '../ports/event-store.port';
import { PROVIDER_DIRECTORY, ProviderDirectory } from '../ports/provider-gateway.port';

/** An operator or biller of the catalog with its live route, if it has one, and who last changed it. */
export interface ProductRoute {
  kind: ProductKind;
  id: number;
  name: string;
  corridor: string;
  provider: string | null;
  upstreamId: string | null;
  /** Whether the route's provider is configured in this service (an order needs it). */
  providerConfigured: boolean | null;
  changedAt: string | null;
  changedBy: RecordedEvent['metadata']['actor'] | null;
}

export class ShowRoutes extends Query<ProductRoute[]> {}

/** Every operator and biller of the catalog with its live route (or none), and who last changed it. */
@QueryHandler(ShowRoutes)
export class ShowRoutesHandler implements IQueryHandler<ShowRoutes> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CATALOG) private readonly catalog: Catalog,
    @Inject(PROVIDER_DIRECTORY) private readonly providers: ProviderDirectory,
  ) {}

  async execute(): Promise<ProductRoute[]> {
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
    return products.map(({ kind, entry }): ProductRoute => {
      const event = latest.get(productKey({ kind, id: entry.id }));
      const set = event?.type === 'RouteSet' ? event : null;
      const provider = set ? set.data.provider : null;
      return {
        kind,
        id: entry.id,
        name: entry.name,
        corridor: entry.corridor,
        provider,
        upstreamId: set ? set.data.upstreamId : null,
        providerConfigured: provider === null ? null : this.providers.live(provider) !== null,
        changedAt: event?.metadata.occurredAt ?? null,
        changedBy: event?.metadata.actor ?? null,
      };
    });
  }
}

export class RouteHistory extends Query<RecordedEvent<RoutingEvent>[]> {}

/** Every route change in order: when, who, what it was before. */
@QueryHandler(RouteHistory)
export class RouteHistoryHandler implements IQueryHandler<RouteHistory> {
  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  async execute(): Promise<RecordedEvent<RoutingEvent>[]> {
    return this.store.readStream(ROUTES_STREAM);
  }
}
