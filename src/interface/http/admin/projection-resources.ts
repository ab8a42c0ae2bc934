import {
  PositionView,
  ProjectionStatus,
  RebuildPhase,
  RebuildProgress,
  RebuildState,
} from '../../../application/ports/projections.port';

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

export const rebuildResource = (rebuild: RebuildProgress): RebuildResource => ({
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

export const projectionsResource = (statuses: readonly ProjectionStatus[]): ProjectionsResource => ({
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
