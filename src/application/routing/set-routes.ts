import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { randomUUID } from 'node:crypto';
import { PROVIDER_NAME, ProductKind, ProductRef, RouteTarget, UPSTREAM_ID } from '../../domain/routing/route';
import { ROUTES_STREAM, ROUTES_STREAM_ID, RouteSet, RouteSource } from '../../domain/routing/routing.events';
import { routingDecider } from '../../domain/routing/routing.decider';
import { Actor } from '../../domain/shared/actor';
import { CATALOG, Catalog } from '../ports/catalog.port';
import { CLOCK, Clock } from '../ports/clock.port';
import { PROVIDER_BACK_OFFICES, ProviderBackOffices } from '../ports/provider-back-office.port';
import { ProviderUnavailableError } from '../ports/provider-gateway.port';
import { DeciderRunner } from '../shared/decider-runner';
import { metadata } from '../shared/event-envelope';
import { ServiceError } from '../shared/service-error';

export interface RouteAssignment {
  product: ProductRef;
  target: RouteTarget;
}

/** A route that changed (a route set to what it already was records nothing), and what it was before. */
export interface RouteChange {
  kind: ProductKind;
  id: number;
  provider: string;
  upstreamId: string;
  previous: RouteTarget | null;
}

export class SetRoutes extends Command<RouteChange[]> {
  constructor(
    readonly routes: readonly RouteAssignment[],
    readonly source: RouteSource,
    readonly operator: Actor,
  ) {
    super();
  }
}

/** Sets live routes, all in one append: the operator who did it and when are on every event. */
@CommandHandler(SetRoutes)
export class SetRoutesHandler implements ICommandHandler<SetRoutes, RouteChange[]> {
  constructor(
    @Inject(CATALOG) private readonly catalog: Catalog,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(PROVIDER_BACK_OFFICES) private readonly backOffices: ProviderBackOffices,
    private readonly runner: DeciderRunner,
  ) {}

  async execute({ routes, source, operator }: SetRoutes): Promise<RouteChange[]> {
    for (const route of routes) checkAssignment(this.catalog, route);
    // A sync proposes no entry its provider refuses; a route set by hand is checked against the entry.
    if (source === 'manual') for (const route of routes) await this.checkUpstream(route);
    const now = this.clock.now();
    const result = await this.runner.handle(
      routingDecider,
      ROUTES_STREAM,
      { type: 'SetRoutes', routes, source, at: now.toISOString() },
      { metadata: routesMetadata(operator, now), eventId: () => randomUUID() },
    );
    if (!result.ok) throw ServiceError.from(result.error);
    return result.events
      .filter((event): event is RouteSet => event.type === 'RouteSet')
      .map(({ data }) => ({
        kind: data.kind,
        id: data.productId,
        provider: data.provider,
        upstreamId: data.upstreamId,
        previous: data.previous,
      }));
  }

  /** The provider's own objection to the entry, if it has one (decision 0122). */
  private async checkUpstream({ product, target }: RouteAssignment): Promise<void> {
    const source = this.backOffices.catalogOf(target.provider);
    if (!source?.refusalOf) return;
    let refusal: string | null;
    try {
      refusal = await source.refusalOf(product.kind, target.upstreamId);
    } catch (error) {
      if (!(error instanceof ProviderUnavailableError)) throw error;
      throw new ServiceError(
        'provider_unavailable',
        `the catalog of ${target.provider} could not be read to check ${target.upstreamId}: ${error.message}`,
      );
    }
    if (refusal)
      throw new ServiceError(
        'invalid_state',
        `${product.kind} ${product.id} cannot be routed to ${target.provider} ${target.upstreamId}: ${refusal}`,
      );
  }
}

export const routesMetadata = (operator: Actor, at: Date) =>
  metadata({ partnerId: null, environment: 'live', correlationId: ROUTES_STREAM_ID, actor: operator, at });

/** A route names a product of our catalog and a well-formed provider and upstream id. */
export function checkAssignment(catalog: Catalog, { product, target }: RouteAssignment): void {
  const entry = product.kind === 'operator' ? catalog.operator(product.id) : catalog.biller(product.id);
  if (!entry) throw new ServiceError('not_found', `no ${product.kind} ${product.id} in the catalog`);
  if (!PROVIDER_NAME.test(target.provider))
    throw new ServiceError('validation_failed', 'provider: lower-case letters, digits and -, 2 to 32 characters');
  if (!UPSTREAM_ID.test(target.upstreamId))
    throw new ServiceError('validation_failed', 'upstream_id: letters, digits and _ . : -, at most 64 characters');
}
