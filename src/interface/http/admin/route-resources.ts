import type { RouteChange } from '../../../application/routing/set-routes';
import type { ProductRoute } from '../../../application/routing/show-routes';
import type { SyncResult } from '../../../application/routing/sync-provider-routes';
import { RecordedEvent } from '../../../application/ports/event-store.port';
import { RoutingEvent } from '../../../domain/routing/routing.events';

const routeChangeResource = (change: RouteChange) => ({
  kind: change.kind,
  id: change.id,
  provider: change.provider,
  upstream_id: change.upstreamId,
  previous: change.previous && { provider: change.previous.provider, upstream_id: change.previous.upstreamId },
});

/** The routes that changed (a route set to what it already was records nothing). */
export const routesChangedResource = (changes: readonly RouteChange[]) => ({
  changed: changes.map(routeChangeResource),
});

const upstreamResource = ({ upstreamId, upstreamName }: { upstreamId: string; upstreamName: string }) => ({
  upstream_id: upstreamId,
  upstream_name: upstreamName,
});

type Upstream = Parameters<typeof upstreamResource>[0];

/** A product and the provider's entry found for it, as a proposal and a refusal both show them. */
const productAndUpstream = (entry: { kind: string; id: number; name: string; country: string } & Upstream) => ({
  kind: entry.kind,
  id: entry.id,
  name: entry.name,
  country: entry.country,
  ...upstreamResource(entry),
});

/** A route sync's proposal (and what it changed, when applied). */
export const syncResource = (result: SyncResult) => ({
  provider: result.provider,
  proposed: result.proposed.map((route) => ({
    ...productAndUpstream(route),
    match: route.match,
    current: route.current,
  })),
  unchanged: result.unchanged,
  ambiguous: result.ambiguous.map(({ candidates, ...product }) => ({
    ...product,
    candidates: candidates.map(upstreamResource),
  })),
  unmatched: result.unmatched,
  routed_elsewhere: result.routedElsewhere,
  not_offered: result.notOffered.map((entry) => ({ ...productAndUpstream(entry), reason: entry.reason })),
  applied: result.applied,
  changed: result.changed.map(routeChangeResource),
});

/** Every operator and biller with its live route, and how many are routed. */
export const routesResource = (products: readonly ProductRoute[]) => {
  const routes = products.map((route) => ({
    kind: route.kind,
    id: route.id,
    name: route.name,
    corridor: route.corridor,
    provider: route.provider,
    upstream_id: route.upstreamId,
    // Whether the route's provider is configured in this service (an order needs it).
    provider_configured: route.providerConfigured,
    changed_at: route.changedAt,
    changed_by: route.changedBy,
  }));
  const routed = routes.filter((route) => route.provider !== null).length;
  return { routed, unrouted: routes.length - routed, routes };
};

/** Each route change: when, who, and the event's data (what it was before). */
export const routeHistoryResource = (events: readonly RecordedEvent<RoutingEvent>[]) => ({
  events: events.map((event) => ({
    revision: event.revision,
    event_type: event.type,
    occurred_at: event.metadata.occurredAt,
    actor: event.metadata.actor,
    data: event.data,
  })),
});
