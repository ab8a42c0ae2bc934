import { Decider, accept, refuse } from '../shared/decider';
import { domainError } from '../shared/domain-error';
import { ProductRef, RouteTarget, productKey, sameTarget } from './route';
import { RouteSource, RoutingEvent } from './routing.events';

export interface RoutingState {
  /** Current routes by `productKey`. */
  routes: ReadonlyMap<string, RouteTarget>;
}

export type RoutingCommand =
  | {
      type: 'SetRoutes';
      routes: readonly { product: ProductRef; target: RouteTarget }[];
      source: RouteSource;
      at: string;
    }
  | { type: 'RemoveRoute'; product: ProductRef; reason: string; at: string };

/** Setting a route it already has records nothing, so a repeated sync adds no events. */
function decide(command: RoutingCommand, state: RoutingState) {
  switch (command.type) {
    case 'SetRoutes': {
      const events: RoutingEvent[] = [];
      const seen = new Set<string>();
      for (const { product, target } of command.routes) {
        const key = productKey(product);
        if (seen.has(key))
          return refuse<RoutingEvent>(domainError('validation_failed', `${product.kind} ${product.id} is given twice`));
        seen.add(key);
        const previous = state.routes.get(key) ?? null;
        if (sameTarget(previous, target)) continue;
        events.push({
          type: 'RouteSet',
          data: {
            kind: product.kind,
            productId: product.id,
            provider: target.provider,
            upstreamId: target.upstreamId,
            previous,
            source: command.source,
            setAt: command.at,
          },
        });
      }
      return accept(...events);
    }
    case 'RemoveRoute': {
      const previous = state.routes.get(productKey(command.product));
      if (!previous)
        return refuse<RoutingEvent>(
          domainError('not_found', `${command.product.kind} ${command.product.id} has no route`),
        );
      return accept<RoutingEvent>({
        type: 'RouteRemoved',
        data: {
          kind: command.product.kind,
          productId: command.product.id,
          previous,
          reason: command.reason,
          removedAt: command.at,
        },
      });
    }
  }
}

function evolve(state: RoutingState, event: RoutingEvent): RoutingState {
  const routes = new Map(state.routes);
  const key = productKey({ kind: event.data.kind, id: event.data.productId });
  if (event.type === 'RouteSet') routes.set(key, { provider: event.data.provider, upstreamId: event.data.upstreamId });
  else routes.delete(key);
  return { routes };
}

export const routingDecider: Decider<RoutingState, RoutingCommand, RoutingEvent> = {
  initialState: { routes: new Map() },
  decide,
  evolve,
};
