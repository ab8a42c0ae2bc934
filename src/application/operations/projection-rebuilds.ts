import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler, IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { PROJECTION_ADMIN, ProjectionAdmin, ProjectionStatus, RebuildProgress } from '../ports/projections.port';
import { ServiceError } from '../shared/service-error';
import { BACK_OFFICE_ACTION_LOG, BackOfficeActionLog } from '../ports/back-office-action-log.port';
import { CLOCK, Clock } from '../ports/clock.port';
import { OperatorIdentity, actingOperator } from '../back-office/operator-identity';

export class ShowProjections extends Query<ProjectionStatus[]> {}

@QueryHandler(ShowProjections)
export class ShowProjectionsHandler implements IQueryHandler<ShowProjections> {
  constructor(@Inject(PROJECTION_ADMIN) private readonly projections: ProjectionAdmin) {}

  async execute(): Promise<ProjectionStatus[]> {
    return this.projections.status();
  }
}

export class RebuildProjection extends Command<RebuildProgress> {
  constructor(
    readonly projection: string,
    readonly operator: OperatorIdentity,
  ) {
    super();
  }
}

/** Starts a blue/green rebuild of one read model and answers at once; recorded in the back-office action log (`audit operator`). */
@CommandHandler(RebuildProjection)
export class RebuildProjectionHandler implements ICommandHandler<RebuildProjection> {
  constructor(
    @Inject(PROJECTION_ADMIN) private readonly projections: ProjectionAdmin,
    @Inject(BACK_OFFICE_ACTION_LOG) private readonly actions: BackOfficeActionLog,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ projection, operator }: RebuildProjection): Promise<RebuildProgress> {
    const started = await this.projections.startRebuild(projection);
    if (started.ok) {
      await this.actions.record({
        ...actingOperator(operator),
        action: 'projection_rebuild_started',
        subject: started.rebuild.projection,
        partnerId: null,
        environment: null,
        detail: { rebuild_id: started.rebuild.rebuildId, version_before: started.rebuild.versionBefore },
        at: this.clock.now(),
      });
      return started.rebuild;
    }
    throw new ServiceError(started.reason === 'unknown_projection' ? 'not_found' : 'invalid_state', started.detail);
  }
}

export class ShowProjectionRebuild extends Query<RebuildProgress> {
  constructor(readonly rebuildId: string) {
    super();
  }
}

@QueryHandler(ShowProjectionRebuild)
export class ShowProjectionRebuildHandler implements IQueryHandler<ShowProjectionRebuild> {
  constructor(@Inject(PROJECTION_ADMIN) private readonly projections: ProjectionAdmin) {}

  async execute({ rebuildId }: ShowProjectionRebuild): Promise<RebuildProgress> {
    const rebuild = await this.projections.rebuild(rebuildId);
    if (!rebuild) throw new ServiceError('not_found', `no rebuild ${rebuildId}`);
    return rebuild;
  }
}
