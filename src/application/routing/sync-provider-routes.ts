import { Inject } from '@nestjs/common';
import { Command, CommandBus, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CORRIDORS } from '../../domain/corridor/corridor';
import { OwnProduct, RouteProposal, UpstreamProduct, proposeRoutes } from '../../domain/routing/propose-routes';
import { PROVIDER_NAME, productKey } from '../../domain/routing/route';
import { Actor } from '../../domain/shared/actor';
import { CATALOG, Catalog } from '../ports/catalog.port';
import { CatalogCoverage, PROVIDER_BACK_OFFICES, ProviderBackOffices } from '../ports/provider-back-office.port';
import { ProviderUnavailableError } from '../ports/provider-gateway.port';
import { ServiceError } from '../shared/service-error';
import { RouteBook } from './route-book';
import { RouteChange, SetRoutes } from './set-routes';

export type SyncResult = RouteProposal & { applied: boolean; changed: RouteChange[] };

export class SyncProviderRoutes extends Command<SyncResult> {
  constructor(
    readonly provider: string,
    readonly apply: boolean,
    readonly operator: Actor,
  ) {
    super();
  }
}

/**
 * Proposes a route for each active product from the provider's catalogs, by country and name; `apply` records them
 * (decision 0055). Ambiguous and unmatched products are left for `route set`; another provider's are never taken.
 */
@CommandHandler(SyncProviderRoutes)
export class SyncProviderRoutesHandler implements ICommandHandler<SyncProviderRoutes, SyncResult> {
  constructor(
    @Inject(CATALOG) private readonly catalog: Catalog,
    @Inject(PROVIDER_BACK_OFFICES) private readonly backOffices: ProviderBackOffices,
    private readonly routes: RouteBook,
    private readonly commands: CommandBus,
  ) {}

  async execute({ provider, apply, operator }: SyncProviderRoutes): Promise<SyncResult> {
    if (!PROVIDER_NAME.test(provider))
      throw new ServiceError('validation_failed', 'provider: lower-case letters, digits and -, 2 to 32 characters');
    const source = this.backOffices.catalogOf(provider);
    if (!source)
      throw new ServiceError('not_found', `provider ${provider} is not configured, or has no catalog to read`);
    const countries = Object.values(CORRIDORS).map((corridor) => corridor.country);
    let upstream: UpstreamProduct[];
    try {
      upstream = await source.products(countries);
    } catch (error) {
      if (error instanceof ProviderUnavailableError)
        throw new ServiceError(
          'provider_unavailable',
          `the catalog of ${provider} could not be read: ${error.message}`,
        );
      throw error;
    }
    const proposal = proposeRoutes(provider, await this.ownProducts(source.coverage), upstream);
    if (!apply || proposal.proposed.length === 0) return { ...proposal, applied: apply, changed: [] };
    const changed = await this.commands.execute(
      new SetRoutes(
        proposal.proposed.map((route) => ({
          product: { kind: route.kind, id: route.id },
          target: { provider, upstreamId: route.upstreamId },
        })),
        'sync',
        operator,
      ),
    );
    return { ...proposal, applied: true, changed };
  }

  /** Our active products the provider may serve (its coverage; all of them without one). */
  private async ownProducts(coverage: CatalogCoverage | undefined): Promise<OwnProduct[]> {
    const { state } = await this.routes.current();
    const products: OwnProduct[] = [];
    const covers = (kind: 'operator' | 'biller', country: string) =>
      !coverage || (coverage.kinds.includes(kind) && coverage.countries.includes(country));
    for (const corridor of Object.values(CORRIDORS)) {
      for (const entry of this.catalog.operators(corridor.code)) {
        if (entry.active && covers('operator', corridor.country))
          products.push({
            kind: 'operator',
            id: entry.id,
            name: entry.name,
            country: corridor.country,
            route: state.routes.get(productKey({ kind: 'operator', id: entry.id })) ?? null,
          });
      }
      for (const entry of this.catalog.billers(corridor.code)) {
        if (entry.active && covers('biller', corridor.country) && (!coverage?.bbpsOnly || entry.bbps))
          products.push({
            kind: 'biller',
            id: entry.id,
            name: entry.name,
            country: corridor.country,
            route: state.routes.get(productKey({ kind: 'biller', id: entry.id })) ?? null,
          });
      }
    }
    return products;
  }
}
