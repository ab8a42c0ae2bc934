import { Inject } from '@nestjs/common';
import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { LiveProviderStatus, PROVIDER_STATUS, ProviderStatusReader } from '../ports/provider-status.port';

export class ShowLiveProvider extends Query<Record<string, unknown>> {}

/** The live provider and our float there, read from the provider now (operations: `provider status`). */
@QueryHandler(ShowLiveProvider)
export class ShowLiveProviderHandler implements IQueryHandler<ShowLiveProvider> {
  constructor(@Inject(PROVIDER_STATUS) private readonly providers: ProviderStatusReader) {}

  async execute(): Promise<Record<string, unknown>> {
    const all = this.providers.all ? await this.providers.all(true) : [await this.providers.live(true)];
    const statuses = all.filter((status): status is LiveProviderStatus => status !== null);
    // The first provider's fields as before, and every configured provider in `providers`.
    return { ...liveProviderResource(statuses[0] ?? null), providers: statuses.map(providerResource) };
  }
}

/** One provider's entry of `providers`: its float (null where it has no balance endpoint) and whether it has one. */
function providerResource(status: LiveProviderStatus): Record<string, unknown> {
  const { live_provider: provider, ...rest } = liveProviderResource(status);
  return { provider, balance_endpoint: status.balanceEndpoint ?? true, ...rest };
}

export function liveProviderResource(status: LiveProviderStatus | null): Record<string, unknown> {
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
