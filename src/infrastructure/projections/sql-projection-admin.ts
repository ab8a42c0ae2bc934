import { BeforeApplicationShutdown, OnApplicationBootstrap } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { EventLogDiagnostics } from '../../application/ports/event-log-diagnostics.port';
import { EventStore, GlobalPosition } from '../../application/ports/event-store.port';
import {
  ProjectionAdmin,
  ProjectionStatus,
  RebuildProgress,
  StartRebuildResult,
} from '../../application/ports/projections.port';
import { SqlDatabase } from '../sql/sql-database';
import { BlueGreenRebuild, RebuildOptions } from './blue-green-rebuild';
import { checkpoints } from './checkpoint-store';
import { projectionVersions, rebuildRecords } from './projection-versions';
import { SqlProjection } from './sql-projection';

interface ProjectionGroup {
  name: string;
  projections: readonly SqlProjection[];
  /** A group that schedules side effects (jobs, webhooks, provider calls) must never be rebuilt: they would happen again. */
  rebuildable: boolean;
}

const DEFAULT_OPTIONS: Omit<RebuildOptions, 'stopping'> = { batchSize: 500, lockTimeoutMs: 5_000, switchAttempts: 20 };
/** A rebuild reports after every batch; one silent for this long belonged to a process that died. */
const STALE_AFTER_MS = 2 * 60_000;

export class SqlProjectionAdmin implements ProjectionAdmin, OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly running = new Map<string, Promise<void>>();
  private stopping = false;

  constructor(
    private readonly db: SqlDatabase,
    private readonly store: Pick<EventStore, 'readAll'>,
    private readonly diagnostics: Pick<EventLogDiagnostics, 'countEvents'>,
    private readonly groups: readonly ProjectionGroup[],
    private readonly onError: (error: unknown) => void,
    private readonly options: Omit<RebuildOptions, 'stopping'> = DEFAULT_OPTIONS,
  ) {}

  async status(): Promise<ProjectionStatus[]> {
    const versions = await projectionVersions.all(this.db);
    const rebuilding = new Map((await rebuildRecords.running(this.db)).map((rebuild) => [rebuild.projection, rebuild]));
    const result: ProjectionStatus[] = [];
    for (const group of this.groups) {
      const checkpoint = await checkpoints.read(this.db, group.name);
      const lagEvents = await this.diagnostics.countEvents(checkpoint);
      for (const projection of group.projections) {
        const version = versions.get(projection.name);
        result.push({
          name: projection.name,
          group: group.name,
          rebuildable: group.rebuildable,
          version: version?.version ?? 1,
          checkpoint: checkpoint && positionView(checkpoint),
          lagEvents,
          rebuiltAt: version?.rebuiltAt ?? null,
          rebuilding: rebuilding.get(projection.name) ?? null,
        });
      }
    }
    return result;
  }

  async startRebuild(name: string): Promise<StartRebuildResult> {
    const found = this.find(name);
    if (!found) {
      const known = this.groups
        .filter((group) => group.rebuildable)
        .flatMap((group) => group.projections.map((projection) => projection.name));
      return {
        ok: false,
        reason: 'unknown_projection',
        detail: `no projection ${name}; rebuildable: ${known.join(', ')}`,
      };
    }
    if (!found.group.rebuildable) {
      return {
        ok: false,
        reason: 'not_rebuildable',
        detail: `${name} schedules side effects (jobs, webhooks, provider calls) and is never rebuilt or replayed`,
      };
    }
    if (this.stopping) return { ok: false, reason: 'already_running', detail: 'the service is stopping' };
    const now = new Date();
    await rebuildRecords.abandonStale(this.db, name, new Date(now.getTime() - STALE_AFTER_MS));
    const rebuildId = `rbd_${randomUUID().replace(/-/g, '')}`;
    const versionBefore = await projectionVersions.current(this.db, name);
    if (!(await rebuildRecords.insert(this.db, { rebuildId, projection: name, versionBefore, at: now }))) {
      const current = (await rebuildRecords.running(this.db)).find((rebuild) => rebuild.projection === name);
      return {
        ok: false,
        reason: 'already_running',
        detail: `a rebuild of ${name} is already running${current ? ` (${current.rebuildId})` : ''}`,
      };
    }
    const rebuild = new BlueGreenRebuild(
      this.db,
      this.store,
      this.diagnostics,
      found.projection,
      found.group.name,
      rebuildId,
      {
        ...this.options,
        stopping: () => this.stopping,
      },
    );
    const run = this.execute(rebuildId, rebuild).finally(() => this.running.delete(rebuildId));
    this.running.set(rebuildId, run);
    const started = await rebuildRecords.find(this.db, rebuildId);
    if (!started) throw new Error(`rebuild ${rebuildId} was not recorded`);
    return { ok: true, rebuild: started };
  }

  /** Rebuilds blue/green every read model whose tables are older than the code's schema version; a newer recorded version is left alone. */
  async startDueRebuilds(): Promise<StartRebuildResult[]> {
    const built = await projectionVersions.schemaVersions(this.db);
    const due = this.groups
      .filter((group) => group.rebuildable)
      .flatMap((group) => group.projections)
      .filter((projection) => (built.get(projection.name) ?? projection.schemaVersion) < projection.schemaVersion);
    const started: StartRebuildResult[] = [];
    for (const projection of due) started.push(await this.startRebuild(projection.name));
    return started;
  }

  async onApplicationBootstrap(): Promise<void> {
    for (const result of await this.startDueRebuilds()) {
      if (!result.ok && result.reason !== 'already_running') this.onError(new Error(result.detail));
    }
  }

  rebuild(rebuildId: string): Promise<RebuildProgress | null> {
    return rebuildRecords.find(this.db, rebuildId);
  }

  async whenFinished(rebuildId: string): Promise<void> {
    await this.running.get(rebuildId);
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    await Promise.allSettled([...this.running.values()]);
  }

  private async execute(rebuildId: string, rebuild: BlueGreenRebuild): Promise<void> {
    try {
      await rebuild.run();
      await rebuildRecords.finish(this.db, rebuildId, { state: 'completed', error: null, at: new Date() });
    } catch (error) {
      this.onError(error);
      await rebuildRecords
        .finish(this.db, rebuildId, {
          state: 'failed',
          error: error instanceof Error ? error.message : String(error),
          at: new Date(),
        })
        .catch((failure: unknown) => this.onError(failure));
    }
  }

  private find(name: string): { group: ProjectionGroup; projection: SqlProjection } | null {
    for (const group of this.groups) {
      const projection = group.projections.find((candidate) => candidate.name === name);
      if (projection) return { group, projection };
    }
    return null;
  }
}

const positionView = (position: GlobalPosition) => ({
  commit: position.commit.toString(),
  prepare: position.prepare.toString(),
});
