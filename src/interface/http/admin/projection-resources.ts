import { ProjectionStatus, RebuildProgress } from '../../../application/ports/projections.port';

export const rebuildResource = (rebuild: RebuildProgress) => ({
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
});

export const projectionsResource = (statuses: readonly ProjectionStatus[]) => ({
  projections: statuses.map((status) => ({
    name: status.name,
    group: status.group,
    rebuildable: status.rebuildable,
    version: status.version,
    checkpoint: status.checkpoint,
    lag_events: status.lagEvents,
    rebuilt_at: status.rebuiltAt,
    rebuilding: status.rebuilding && rebuildResource(status.rebuilding),
  })),
});
