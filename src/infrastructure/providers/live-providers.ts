import { Logger } from '@nestjs/common';
import { Catalog } from '../../application/ports/catalog.port';
import { ProviderCatalogSource, ProviderReportSource } from '../../application/ports/provider-back-office.port';
import { ProviderGateway } from '../../application/ports/provider-gateway.port';
import { LiveProviderStatus, ProviderStatusReader } from '../../application/ports/provider-status.port';
import { LiveProviderName, ServiceConfig } from '../../config/service-config';
import { ReloadlyLiveProvider } from './reloadly/reloadly-live-provider';
import { SetuLiveProvider } from './setu/setu-live-provider';

interface LiveProviderAdapter {
  name: LiveProviderName;
  gateway: ProviderGateway;
  catalog: ProviderCatalogSource | null;
  reports: ProviderReportSource | null;
  status(fresh: boolean): Promise<LiveProviderStatus>;
}

export class LiveProviders implements ProviderStatusReader {
  constructor(readonly adapters: readonly LiveProviderAdapter[]) {}

  static fromConfig(config: ServiceConfig, catalog: Catalog, now: () => number = Date.now): LiveProviders {
    const adapters = config.liveProviders.map((name): LiveProviderAdapter => {
      if (name === 'reloadly') {
        if (!config.reloadly) throw new Error('reloadly is a live provider but has no configuration');
        const reloadly = new ReloadlyLiveProvider(config.reloadly, now);
        return {
          name,
          gateway: reloadly.provider,
          catalog: reloadly.backOffice,
          reports: reloadly.backOffice,
          status: (fresh) => reloadly.live(fresh),
        };
      }
      if (!config.setu) throw new Error('setu is a live provider but has no configuration');
      const setu = new SetuLiveProvider(config.setu, catalog, new Logger('Setu'));
      return {
        name,
        gateway: setu.provider,
        catalog: setu.backOffice,
        reports: setu.backOffice,
        status: (fresh) => setu.status(fresh),
      };
    });
    return new LiveProviders(adapters);
  }

  async live(fresh: boolean): Promise<LiveProviderStatus | null> {
    return this.adapters[0] ? this.adapters[0].status(fresh) : null;
  }

  all(fresh: boolean): Promise<LiveProviderStatus[]> {
    return Promise.all(this.adapters.map((adapter) => adapter.status(fresh)));
  }
}
