import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler, IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { PROJECTION_ADMIN, ProjectionAdmin, ProjectionStatus, RebuildProgress } from '../ports/projections.port';
import { ServiceError } from '../shared/service-error';

export class ShowProjections extends Query<Record<string, unknown>> {}

/** Each projection's version, checkpoint and lag, and the rebuild in progress if any. */
@QueryHandler(ShowProjections)
export class ShowProjectionsHandler implements IQueryHandler<ShowProjections> {
  constructor(@Inject(PROJECTION_ADMIN) private readonly projections: ProjectionAdmin) {}

  async execute(): Promise<Record<string, unknown>> {
    return { projections: (await this.projections.status()).map(projectionResource) };
  }
}

export class RebuildProjection extends Command<Record<string, unknown>> {
  constructor(readonly projection: string) {
    super();
  }
}

/** Starts a blue/green rebuild of one read model; answers at once with the rebuild to follow. */
@CommandHandler(RebuildProjection)
export class RebuildProjectionHandler implements ICommandHandler<RebuildProjection> {
  constructor(@Inject(PROJECTION_ADMIN) private readonly projections: ProjectionAdmin) {}

  async execute({ projection }: RebuildProjection): Promise<Record<string, unknown>> {
    const started = await this.projections.startRebuild(projection);
    if (started.ok) return rebuildResource(started.rebuild);
    throw new ServiceError(started.reason === 'unknown_projection' ? 'not_found' : 'invalid_state', started.detail);
  }
}

export class ShowProjectionRebuild extends Query<Record<string, unknown>> {
  constructor(readonly rebuildId: string) {
    super();
  }
}

@QueryHandler(ShowProjectionRebuild)
export class ShowProjectionRebuildHandler implements IQueryHandler<ShowProjectionRebuild> {
  constructor(@Inject(PROJECTION_ADMIN) private readonly projections: ProjectionAdmin) {}

  async execute({ rebuildId }: ShowProjectionRebuild): Promise<Record<string, unknown>> {
    const rebuild = await this.projections.rebuild(rebuildId);
    if (!rebuild) throw new ServiceError('not_found', `no rebuild ${rebuildId}`);
    return rebuildResource(rebuild);
  }
}

export function rebuildResource(rebuild: RebuildProgress): Record<string, unknown> {
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

function projectionResource(status: ProjectionStatus): Record<string, unknown> {
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
