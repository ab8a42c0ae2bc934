/** A log position as text (64-bit numbers do not survive JSON as numbers). */
export interface PositionView {
  commit: string;
  prepare: string;
}

export type RebuildState = 'running' | 'completed' | 'failed';

/**
 * building: the new version catches up beside the serving one (reads then move over in one transaction);
 * dropping_old: reads are on the new version and the old one is being dropped.
 */
export type RebuildPhase = 'building' | 'dropping_old' | 'done';

export interface RebuildProgress {
  rebuildId: string;
  projection: string;
  state: RebuildState;
  phase: RebuildPhase;
  /** Events of the log the new version has been through. */
  eventsApplied: number;
  /** Events it has to go through before it can take over (grows while the log grows). */
  eventsTotal: number;
  eventsPerSecond: number;
  /** Seconds left at the current rate; null before there is a rate, 0 once done. */
  etaSeconds: number | null;
  versionBefore: number;
  /** The version that serves reads after the switch; null until then. */
  versionAfter: number | null;
  startedAt: string;
  updatedAt: string;
  finishedAt: string | null;
  error: string | null;
}

export interface ProjectionStatus {
  name: string;
  /** Projections of one group share one checkpoint and move together. */
  group: string;
  /** Only read models are rebuilt; consumers that schedule side effects never are. */
  rebuildable: boolean;
  version: number;
  checkpoint: PositionView | null;
  /** Readable events after the checkpoint. */
  lagEvents: number;
  rebuiltAt: string | null;
  /** The rebuild in progress, if any. */
  rebuilding: RebuildProgress | null;
}

export type StartRebuildResult =
  | { ok: true; rebuild: RebuildProgress }
  | { ok: false; reason: 'unknown_projection' | 'not_rebuildable' | 'already_running'; detail: string };

/** Versioned read models: their status, and blue/green rebuilds that run while the service answers. */
export interface ProjectionAdmin {
  status(): Promise<ProjectionStatus[]>;
  /** Starts a rebuild in the background and returns at once. */
  startRebuild(projection: string): Promise<StartRebuildResult>;
  rebuild(rebuildId: string): Promise<RebuildProgress | null>;
}

export const PROJECTION_ADMIN = Symbol('ProjectionAdmin');
