import { Inject } from '@nestjs/common';
import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { PROVIDER_DIRECTORY, ProviderDirectory } from '../ports/provider-gateway.port';
import { BreakerView, ProviderBreakers } from './provider-breakers';

export class ShowProviderBreakers extends Query<BreakerView[]> {}

/** The circuit breaker of each configured live provider, as this process sees it. */
@QueryHandler(ShowProviderBreakers)
export class ShowProviderBreakersHandler implements IQueryHandler<ShowProviderBreakers> {
  constructor(
    @Inject(PROVIDER_DIRECTORY) private readonly providers: ProviderDirectory,
    private readonly breakers: ProviderBreakers,
  ) {}

  async execute(): Promise<BreakerView[]> {
    return this.providers.liveNames().map((name) => this.breakers.view(name));
  }
}
