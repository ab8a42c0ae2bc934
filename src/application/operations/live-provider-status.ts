import { Inject } from '@nestjs/common';
import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { LiveProviderStatus, PROVIDER_STATUS, ProviderStatusReader } from '../ports/provider-status.port';

export class ShowLiveProvider extends Query<Record<string, unknown>> {}

/** The live provider and our float there, read from the provider now (operations: `provider status`). */
@QueryHandler(ShowLiveProvider)
export class ShowLiveProviderHandler implements IQueryHandler<ShowLiveProvider> {
  constructor(@Inject(PROVIDER_STATUS) private readonly providers: ProviderStatusReader) {}

  async execute(): Promise<Record<string, unknown>> {
    return liveProviderResource(await this.providers.live(true));
  }
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
