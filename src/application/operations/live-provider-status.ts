import { Inject } from '@nestjs/common';
import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { LiveProviderStatus, PROVIDER_STATUS, ProviderStatusReader } from '../ports/provider-status.port';

export interface ProviderFloatResource {
  balance: string;
  currency: string | null;
  low_float_threshold: string | null;
  low: boolean | null;
  read_at: string | null;
}

/** The (first) live provider and our float there; every field null when no provider is configured. */
export interface LiveProviderResource {
  live_provider: string | null;
  float: ProviderFloatResource | null;
  error: string | null;
}

export interface ConfiguredProviderResource {
  provider: string;
  balance_endpoint: boolean;
  float: ProviderFloatResource | null;
  error: string | null;
}

export interface LiveProvidersResource extends LiveProviderResource {
  providers: ConfiguredProviderResource[];
}

export class ShowLiveProvider extends Query<LiveProvidersResource> {}

@QueryHandler(ShowLiveProvider)
export class ShowLiveProviderHandler implements IQueryHandler<ShowLiveProvider> {
  constructor(@Inject(PROVIDER_STATUS) private readonly providers: ProviderStatusReader) {}

  async execute(): Promise<LiveProvidersResource> {
    const all = this.providers.all ? await this.providers.all(true) : [await this.providers.live(true)];
    const statuses = all.filter((status): status is LiveProviderStatus => status !== null);
    return { ...liveProviderResource(statuses[0] ?? null), providers: statuses.map(providerResource) };
  }
}

function providerResource(status: LiveProviderStatus): ConfiguredProviderResource {
  const { float, error } = liveProviderResource(status);
  return { provider: status.provider, balance_endpoint: status.balanceEndpoint ?? true, float, error };
}

export function liveProviderResource(status: LiveProviderStatus | null): LiveProviderResource {
  if (!status) return { live_provider: null, float: null, error: null };
  return {
    live_provider: status.provider,
    float:
      status.balance === null
        ? null
        : {
            balance: status.balance,
            currency: status.currency,
            low_float_threshold: status.lowFloatThreshold,
            low: status.low,
            read_at: status.readAt,
          },
    error: status.error,
  };
}
