import { Inject, Injectable, Logger } from '@nestjs/common';
import { ProductRef, RouteTarget } from '../../domain/routing/route';
import { OrderProduct } from '../../domain/wallet/order-product';
import { Environment } from '../../domain/shared/environment';
import { PROVIDER_DIRECTORY, ProviderDirectory, ProviderGateway } from '../ports/provider-gateway.port';
import { ServiceError } from '../shared/service-error';
import { BreakerGuardedGateway } from './breaker-guarded-gateway';
import { ProviderBreakers } from './provider-breakers';
import { RouteBook } from './route-book';

/**
 * Which provider serves an order: the sandbox's in sandbox; in live the product's route, if its provider is
 * configured and its breaker lets orders through. The route is then fixed in the order (decision 0054).
 */
@Injectable()
export class OrderRouting {
  private readonly guarded = new Map<string, ProviderGateway>();
  private readonly logger = new Logger('Routing');

  constructor(
    @Inject(PROVIDER_DIRECTORY) private readonly providers: ProviderDirectory,
    private readonly routes: RouteBook,
    private readonly breakers: ProviderBreakers,
  ) {}

  /**
   * The route a new order takes (null in the sandbox), or 503 provider_unavailable before anything is
   * debited. The partner's detail names no provider and no breaker state; the log has them (decision 0130).
   */
  async routeForNewOrder(environment: Environment, product: ProductRef): Promise<RouteTarget | null> {
    if (environment === 'sandbox') return null;
    const route = await this.routes.routeOf(product);
    const what = `${product.kind} ${product.id}`;
    if (!route)
      throw new ServiceError('provider_unavailable', `${what} has no live route to a provider yet; no money was moved`);
    if (!this.providers.live(route.provider)) {
      this.logger.warn(`${what} is routed to provider ${route.provider}, which is not configured; refused`);
      throw unavailable(what);
    }
    if (!this.breakers.acceptsNewOrders(route.provider)) {
      const { nextProbeAt: next } = this.breakers.view(route.provider);
      this.logger.warn(
        `${what} refused: the circuit breaker of provider ${route.provider} is open until ${next ?? 'a probe'}`,
      );
      throw unavailable(what);
    }
    return route;
  }

  /** The gateway an existing order goes to: the sandbox, or its route's provider behind that provider's breaker. */
  gatewayOf(environment: Environment, route: RouteTarget | null | undefined, what: string): ProviderGateway {
    if (environment === 'sandbox') return this.providers.sandbox();
    if (!route) throw new Error(`live ${what} carries no route`);
    const gateway = this.liveGateway(route.provider);
    if (!gateway) throw new Error(`provider ${route.provider} of ${what} is not configured`);
    return gateway;
  }

  /** A configured live provider behind its breaker, or null. */
  liveGateway(name: string): ProviderGateway | null {
    const known = this.guarded.get(name);
    if (known) return known;
    const provider = this.providers.live(name);
    if (!provider) return null;
    const guarded = new BreakerGuardedGateway(name, provider, this.breakers);
    this.guarded.set(name, guarded);
    return guarded;
  }
}

/** The catalog entry an order's product is routed by. */
export const routedProductOf = (product: OrderProduct): ProductRef =>
  product.kind === 'topup' ? { kind: 'operator', id: product.operatorId } : { kind: 'biller', id: product.billerId };

const unavailable = (what: string): ServiceError =>
  new ServiceError('provider_unavailable', `${what} cannot be served at the moment; no money was moved; retry later`);
