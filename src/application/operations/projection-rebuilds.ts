import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler, IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import {
  PROJECTION_ADMIN,
  PositionView,
  ProjectionAdmin,
  ProjectionStatus,
  RebuildPhase,
  RebuildProgress,
  RebuildState,
} from '../ports/projections.port';
import { ServiceError } from '../shared/service-error';
import { BACK_OFFICE_ACTION_LOG, BackOfficeActionLog } from '../ports/back-office-action-log.port';
import { CLOCK, Clock } from '../ports/clock.port';
import { OperatorIdentity, actingOperator } from '../back-office/operator-identity';

export interface RebuildResource {
  rebuild_id: string;
  projection: string;
  state: RebuildState;
  phase: RebuildPhase;
  events_applied: number;
  events_total: number;
  events_per_second: number;
  eta_seconds: number | null;
  version_before: number;
  version_after: number | null;
  started_at: string;
  updated_at: string;
  finished_at: string | null;
  error: string | null;
}

export interface ProjectionResource {
  name: string;
  group: string;
  rebuildable: boolean;
  version: number;
  checkpoint: PositionView | null;
  lag_events: number;
  rebuilt_at: string | null;
  rebuilding: RebuildResource | null;
}

export interface ProjectionsResource {
  projections: ProjectionResource[];
}

export class ShowProjections extends Query<ProjectionsResource> {}

@QueryHandler(ShowProjections)
export class ShowProjectionsHandler implements IQueryHandler<ShowProjections> {
  constructor(@Inject(PROJECTION_ADMIN) private readonly projections: ProjectionAdmin) {}

  async execute(): Promise<ProjectionsResource> {
    return { projections: (await this.projections.status()).map(projectionResource) };
  }
}

export class RebuildProjection extends Command<RebuildResource> {
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

  async execute({ projection, operator }: RebuildProjection): Promise<RebuildResource> {
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
      return rebuildResource(started.rebuild);
    }
    throw new ServiceError(started.reason === 'unknown_projection' ? 'not_found' : 'invalid_state', started.detail);
  }
}

export class ShowProjectionRebuild extends Query<RebuildResource> {
  constructor(readonly rebuildId: string) {
    super();
  }
}

@QueryHandler(ShowProjectionRebuild)
export class ShowProjectionRebuildHandler implements IQueryHandler<ShowProjectionRebuild> {
  constructor(@Inject(PROJECTION_ADMIN) private readonly projections: ProjectionAdmin) {}

  async execute({ rebuildId }: ShowProjectionRebuild): Promise<RebuildResource> {
    const rebuild = await this.projections.rebuild(rebuildId);
    if (!rebuild) throw new ServiceError('not_found', `no rebuild ${rebuildId}`);
    return rebuildResource(rebuild);
  }
}

export function rebuildResource(rebuild: RebuildProgress): RebuildResource {
  return {
    rebuild_id: rebuild.rebuildId,
    projection: rebuild.projection,
    state: rebuild.state,
    phase: rebuild.phase,
    events_applied: rebuild.eventsApplied,
    events_total: rebuild.eventsTotal,
    events_per_second: rebuild.eventsPerSecond,
    eta_seconds: rebuild.etaSeconds,
    version_before: rebuild.versionBefore,
    version_after: rebuild.versionAfter,
    started_at: rebuild.startedAt,
    updated_at: rebuild.updatedAt,
    finished_at: rebuild.finishedAt,
    error: rebuild.error,
  };
}

function projectionResource(status: ProjectionStatus): ProjectionResource {
  return {
    name: status.name,
    group: status.group,
    rebuildable: status.rebuildable,
    version: status.version,
    checkpoint: status.checkpoint,
    lag_events: status.lagEvents,
    rebuilt_at: status.rebuiltAt,
    rebuilding: status.rebuilding && rebuildResource(status.rebuilding),
  };
}
