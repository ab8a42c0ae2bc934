import {
  ProviderBackOffices,
  ProviderCatalogSource,
  ProviderReportSource,
} from '../../application/ports/provider-back-office.port';

export class StaticProviderBackOffices implements ProviderBackOffices {
  constructor(
    private readonly catalogs: ReadonlyMap<string, ProviderCatalogSource>,
    private readonly reports: ReadonlyMap<string, ProviderReportSource>,
  ) {}

  catalogOf(provider: string): ProviderCatalogSource | null {
    return this.catalogs.get(provider) ?? null;
  }

  reportsOf(provider: string): ProviderReportSource | null {
    return this.reports.get(provider) ?? null;
  }

  reportNames(): string[] {
    return [...this.reports.keys()];
  }
}
