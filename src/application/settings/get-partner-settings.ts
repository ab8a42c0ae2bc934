import { Inject } from '@nestjs/common';
import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { Environment } from '../../domain/shared/environment';
import { CLOCK, Clock } from '../ports/clock.port';
import { READ_MODELS, ReadModels } from '../ports/read-models.port';
import { EnvironmentSettings, environmentSettings } from './environment-settings';

export class GetPartnerSettings extends Query<EnvironmentSettings> {
  constructor(
    readonly partnerId: string,
    readonly environment: Environment,
  ) {
    super();
  }
}

@QueryHandler(GetPartnerSettings)
export class GetPartnerSettingsHandler implements IQueryHandler<GetPartnerSettings> {
  constructor(
    @Inject(READ_MODELS) private readonly readModels: ReadModels,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ partnerId, environment }: GetPartnerSettings): Promise<EnvironmentSettings> {
    const settings = await this.readModels.partnerSettings(partnerId, environment);
    return environmentSettings(partnerId, environment, settings, this.clock.now());
  }
}
