import { Inject } from '@nestjs/common';
import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { LiveProviderStatus, PROVIDER_STATUS, ProviderStatusReader } from '../ports/provider-status.port';

/** A live provider's float: its balance with us, and whether it is below the threshold. */
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

/** One configured provider: its float (null where it has no balance endpoint) and whether it has one. */
export interface ConfiguredProviderResource {
  provider: string;
  balance_endpoint: boolean;
  float: ProviderFloatResource | null;
  error: string | null;
}

/** The first provider's fields as before, and every configured provider in `providers`. */
export interface LiveProvidersResource extends LiveProviderResource {
  providers: ConfiguredProviderResource[];
}

export class ShowLiveProvider extends Query<LiveProvidersResource> {}

/** The live provider and our float there, read from the provider now (operations: `provider status`). */
@QueryHandler(ShowLiveProvider)
export class ShowLiveProviderHandler implements IQueryHandler<ShowLiveProvider> {
  constructor(@Inject(PROVIDER_STATUS) private readonly providers: ProviderStatusReader) {}

  async execute(): Promise<LiveProvidersResource> {
    const all = this.providers.all ? await this.providers.all(true) : [await this.providers.live(true)];
    const statuses = all.filter((status): status is LiveProviderStatus => status !== null);
    // The first provider's fields as before, and every configured provider in `providers`.
    return { ...liveProviderResource(statuses[0] ?? null), providers: statuses.map(providerResource) };
  }
}

/** One provider's entry of `providers`: its float (null where it has no balance endpoint) and whether it has one. */
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
