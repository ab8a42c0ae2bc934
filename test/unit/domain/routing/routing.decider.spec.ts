import { RoutingCommand, routingDecider } from '../../../../src/domain/routing/routing.decider';
import { RouteRemoved, RouteSet } from '../../../../src/domain/routing/routing.events';
import { spec } from '../../../support/decider-spec';

const AT = '2026-11-25T09:00:00.000Z';
const routes = spec(routingDecider);

const set = (
  ...entries: [kind: 'operator' | 'biller', id: number, provider: string, upstreamId: string][]
): RoutingCommand => ({
  type: 'SetRoutes',
  routes: entries.map(([kind, id, provider, upstreamId]) => ({
    product: { kind, id },
    target: { provider, upstreamId },
  })),
  source: 'manual',
  at: AT,
});
const routeSet = (
  kind: 'operator' | 'biller',
  productId: number,
  provider: string,
  upstreamId: string,
  previous: RouteSet['data']['previous'] = null,
): RouteSet => ({
  type: 'RouteSet',
  data: { kind, productId, provider, upstreamId, previous, source: 'manual', setAt: AT },
});

describe('live routes', () => {
  it('a new route is recorded with no previous route', () => {
    routes
      .given()
      .when(set(['operator', 101, 'reloadly', '1201']))
      .then(routeSet('operator', 101, 'reloadly', '1201'));
  });

  it('moving a product to another provider records where it was before', () => {
    routes
      .given(routeSet('operator', 101, 'reloadly', '1201'))
      .when(set(['operator', 101, 'dtone', 'AIRTEL-IN']))
      .then(routeSet('operator', 101, 'dtone', 'AIRTEL-IN', { provider: 'reloadly', upstreamId: '1201' }));
  });

  it('setting routes a product already has records nothing, so a repeated sync adds no events', () => {
    routes
      .given(routeSet('operator', 101, 'reloadly', '1201'), routeSet('biller', 1005, 'reloadly', '301'))
      .when(set(['operator', 101, 'reloadly', '1201'], ['biller', 1005, 'reloadly', '301']))
      .thenNothingHappens();
  });

  it('an operator and a biller with the same id are different products', () => {
    routes
      .given(routeSet('operator', 101, 'reloadly', '1201'))
      .when(set(['biller', 101, 'reloadly', '77']))
      .then(routeSet('biller', 101, 'reloadly', '77'));
  });

  it('a product given twice in one change is refused', () => {
    routes
      .given()
      .when(set(['operator', 101, 'reloadly', '1201'], ['operator', 101, 'reloadly', '1202']))
      .thenRefused('validation_failed', 'operator 101');
  });

  it('removing a route records what it was; the product is then unrouted', () => {
    const removed: RouteRemoved = {
      type: 'RouteRemoved',
      data: {
        kind: 'operator',
        productId: 101,
        previous: { provider: 'reloadly', upstreamId: '1201' },
        reason: 'operator withdrawn',
        removedAt: AT,
      },
    };
    const state = routes
      .given(routeSet('operator', 101, 'reloadly', '1201'))
      .when({ type: 'RemoveRoute', product: { kind: 'operator', id: 101 }, reason: 'operator withdrawn', at: AT })
      .then(removed);
    expect(state.routes.size).toBe(0);
  });

  it('removing a route that does not exist is refused', () => {
    routes
      .given()
      .when({ type: 'RemoveRoute', product: { kind: 'biller', id: 1005 }, reason: 'x', at: AT })
      .thenRefused('not_found', 'biller 1005 has no route');
  });
});
