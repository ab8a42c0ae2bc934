import { Inject } from '@nestjs/common';
import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { PROVIDER_DIRECTORY, ProviderDirectory } from '../ports/provider-gateway.port';
import { BREAKER_POLICY, BreakerView, ProviderBreakers } from './provider-breakers';

/** The breaker policy, and the breaker of each configured live provider. */
export interface ProviderBreakersResource {
  threshold: number;
  cool_down_seconds: number;
  providers: BreakerView[];
}

export class ShowProviderBreakers extends Query<ProviderBreakersResource> {}

/** The circuit breaker of each configured live provider, as this process sees it. */
@QueryHandler(ShowProviderBreakers)
export class ShowProviderBreakersHandler implements IQueryHandler<ShowProviderBreakers> {
  constructor(
    @Inject(PROVIDER_DIRECTORY) private readonly providers: ProviderDirectory,
    private readonly breakers: ProviderBreakers,
  ) {}

  async execute(): Promise<ProviderBreakersResource> {
    return {
      threshold: BREAKER_POLICY.threshold,
      cool_down_seconds: BREAKER_POLICY.coolDownMs / 1000,
      providers: this.providers.liveNames().map((name) => this.breakers.view(name)),
    };
  }
}
