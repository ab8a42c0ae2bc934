import { Inject } from '@nestjs/common';
import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { LiveProviderStatus, PROVIDER_STATUS, ProviderStatusReader } from '../ports/provider-status.port';

export class ShowLiveProvider extends Query<LiveProviderStatus[]> {}

/** Every configured live provider's status, read from the provider now. */
@QueryHandler(ShowLiveProvider)
export class ShowLiveProviderHandler implements IQueryHandler<ShowLiveProvider> {
  constructor(@Inject(PROVIDER_STATUS) private readonly providers: ProviderStatusReader) {}

  async execute(): Promise<LiveProviderStatus[]> {
    const all = this.providers.all ? await this.providers.all(true) : [await this.providers.live(true)];
    return all.filter((status): status is LiveProviderStatus => status !== null);
  }
}
