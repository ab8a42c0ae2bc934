import { EventLogDiagnostics } from '../../application/ports/event-log-diagnostics.port';
import { EventStore, GlobalPosition, RecordedEvent, comparePositions } from '../../application/ports/event-store.port';
import { RebuildPhase } from '../../application/ports/projections.port';
import { splitStatements } from '../sql/migrations';
import { SqlDatabase, SqlExecutor, sqlStateOf } from '../sql/sql-database';
import { checkpoints } from './checkpoint-store';
import { projectionVersions, rebuildRecords } from './projection-versions';
import { SqlProjection, applyEvents } from './sql-projection';

export interface RebuildOptions {
  batchSize: number;
  /** How long the switch may wait for readers of the serving tables before it tries again. */
  lockTimeoutMs: number;
  switchAttempts: number;
  /** Checked between batches: true ends the rebuild (the serving version is left as it was). */
  stopping: () => boolean;
}

class RebuildStopped extends Error {
  constructor() {
    super('the service stopped during the rebuild; the serving version was left as it was');
    this.name = 'RebuildStopped';
  }
}

/** lock_not_available, deadlock_detected, serialization_failure: the switch is retried. */
const RETRYABLE = new Set(['55P03', '40P01', '40001']);

/** Rebuilds a read model blue/green into `rm_next__<name>`, then swaps it in under the live checkpoint's lock (docs/architecture.md). */
export class BlueGreenRebuild {
  private readonly nextSchema: string;
  private readonly oldSchema: string;
  private readonly checkpointName: string;
  private eventsApplied = 0;
  private eventsTotal = 0;
  /** The search path of the service's own connections, read before any transaction of the rebuild. */
  private searchPath = '';

  constructor(
    private readonly db: SqlDatabase,
    private readonly store: Pick<EventStore, 'readAll'>,
    private readonly diagnostics: Pick<EventLogDiagnostics, 'countEvents'>,
    private readonly projection: SqlProjection,
    private readonly liveGroup: string,
    private readonly rebuildId: string,
    private readonly options: RebuildOptions,
  ) {
    const slug = projection.name.toLowerCase().replace(/[^a-z0-9]+/g, '_');
    this.nextSchema = `rm_next__${slug}`;
    this.oldSchema = `rm_old__${slug}`;
    this.checkpointName = `rebuild:${projection.name}`;
  }

  async run(): Promise<number> {
    const liveSchema = await this.liveSchema();
    this.searchPath = await this.readSearchPath();
    await this.dropSchemas();
    await this.db.query(`CREATE SCHEMA ${ident(this.nextSchema)}`);
    let switched = false;
    try {
      const tables = await this.createTables();
      await checkpoints.ensure(this.db, this.checkpointName);
      await checkpoints.reset(this.db, this.checkpointName);
      const version = await this.catchUpAndSwitch(tables, liveSchema);
      switched = true;
      // Reads are on the new version now; an old version left behind is dropped by the next rebuild.
      await this.dropSchemas().catch(() => undefined);
      return version;
    } finally {
      if (!switched) await this.dropSchemas().catch(() => undefined);
      await this.db
        .query('DELETE FROM projection_checkpoints WHERE name = $1', [this.checkpointName])
        .catch(() => undefined);
    }
  }

  private async catchUpAndSwitch(tables: string[], liveSchema: string): Promise<number> {
    let position: GlobalPosition | null = null;
    let target = await checkpoints.read(this.db, this.liveGroup);
    this.eventsTotal = target ? await this.diagnostics.countEvents(null, target) : 0;
    await this.report('building');
    let failedSwitches = 0;
    for (;;) {
      if (this.options.stopping()) throw new RebuildStopped();
      const latest = await checkpoints.read(this.db, this.liveGroup);
      if (latest && (!target || comparePositions(latest, target) > 0)) {
        this.eventsTotal += await this.diagnostics.countEvents(target, latest);
        target = latest;
      }
      const batch = target
        ? (await this.store.readAll(position, { maxCount: this.options.batchSize })).filter(
            (event) => comparePositions(event.position, target as GlobalPosition) <= 0,
          )
        : [];
      if (batch.length === this.options.batchSize) {
        position = await this.applyBatch(batch);
        continue;
      }
      // Close to the serving version: try to take its place.
      try {
        const outcome = await this.trySwitch(position, tables, liveSchema);
        if (outcome.switched) return outcome.version;
        position = outcome.position;
      } catch (error) {
        const state = sqlStateOf(error);
        if (state === null || !RETRYABLE.has(state) || ++failedSwitches >= this.options.switchAttempts) throw error;
        await new Promise((resolve) => setTimeout(resolve, 20 * failedSwitches));
      }
    }
  }

  private async applyBatch(events: RecordedEvent[]): Promise<GlobalPosition> {
    const last = events[events.length - 1].position;
    const applied = this.eventsApplied + events.length;
    await this.db.transaction(async (tx) => {
      await this.applyToNext(tx, events);
      await checkpoints.write(tx, this.checkpointName, last);
      await this.reportIn(tx, 'building', applied);
    });
    this.eventsApplied = applied;
    return last;
  }

  /** Reads ahead outside the transaction, then locks the live checkpoint; the new version takes over once every event up to it is in hand. */
  private async trySwitch(
    position: GlobalPosition | null,
    tables: string[],
    liveSchema: string,
  ): Promise<{ switched: true; version: number } | { switched: false; position: GlobalPosition | null }> {
    const ahead = await this.store.readAll(position, { maxCount: this.options.batchSize });
    let applied = this.eventsApplied;
    const outcome = await this.db.transaction(
      async (
        tx,
      ): Promise<{ switched: true; version: number } | { switched: false; position: GlobalPosition | null }> => {
        await tx.query(`SELECT set_config('lock_timeout', $1, true)`, [`${this.options.lockTimeoutMs}ms`]);
        const live = await checkpoints.read(tx, this.liveGroup, true);
        if (position !== null && (live === null || comparePositions(live, position) < 0)) {
          throw new Error(
            `the checkpoint of ${this.liveGroup} moved backwards during the rebuild (was it reset?); run the rebuild again`,
          );
        }
        const upToLive = live === null ? [] : ahead.filter((event) => comparePositions(event.position, live) <= 0);
        const last = upToLive.length ? upToLive[upToLive.length - 1].position : position;
        const complete = live === null || (last !== null && comparePositions(last, live) === 0);
        if (upToLive.length) {
          await this.applyToNext(tx, upToLive);
          await checkpoints.write(tx, this.checkpointName, upToLive[upToLive.length - 1].position);
          applied += upToLive.length;
        }
        if (!complete) {
          await this.reportIn(tx, 'building', applied);
          return { switched: false, position: last };
        }
        await this.reportIn(tx, 'dropping_old', applied, applied);
        await tx.query(`CREATE SCHEMA ${ident(this.oldSchema)}`);
        for (const table of tables) {
          await tx.query(
            `ALTER TABLE IF EXISTS ${ident(liveSchema)}.${ident(table)} SET SCHEMA ${ident(this.oldSchema)}`,
          );
          await tx.query(`ALTER TABLE ${ident(this.nextSchema)}.${ident(table)} SET SCHEMA ${ident(liveSchema)}`);
        }
        const version = await projectionVersions.bump(
          tx,
          this.projection.name,
          this.rebuildId,
          new Date(),
          this.projection.schemaVersion,
        );
        await rebuildRecords.switched(tx, this.rebuildId, version, new Date());
        return { switched: true, version };
      },
    );
    // Counted only once committed: a switch attempt that rolled back is made again.
    this.eventsApplied = applied;
    if (outcome.switched) this.eventsTotal = applied;
    return outcome;
  }

  /** The projection writes to the new tables: their schema comes first on the search path for this transaction. */
  private async applyToNext(tx: SqlExecutor, events: readonly RecordedEvent[]): Promise<void> {
    await tx.query(`SELECT set_config('search_path', $1, true)`, [`${ident(this.nextSchema)}, ${this.searchPath}`]);
    await applyEvents(this.projection, events, tx);
    await tx.query(`SELECT set_config('search_path', $1, true)`, [this.searchPath]);
  }

  private async createTables(): Promise<string[]> {
    await this.db.transaction(async (tx) => {
      await tx.query(`SELECT set_config('search_path', $1, true)`, [`${ident(this.nextSchema)}, ${this.searchPath}`]);
      for (const statement of splitStatements(this.projection.schema.sql)) await tx.query(statement);
    });
    const rows = await this.db.query<{ table_name: string }>(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = $1 AND table_type = 'BASE TABLE' ORDER BY table_name`,
      [this.nextSchema],
    );
    if (rows.length === 0) throw new Error(`the schema script of ${this.projection.name} created no table of its own`);
    return rows.map((row) => row.table_name);
  }

  private async readSearchPath(): Promise<string> {
    const rows = await this.db.query<{ path: string }>(`SELECT current_setting('search_path') AS path`);
    return rows[0].path;
  }

  private async liveSchema(): Promise<string> {
    const rows = await this.db.query<{ schema: string }>('SELECT current_schema() AS schema');
    return rows[0].schema;
  }

  private async dropSchemas(): Promise<void> {
    await this.db.query(`DROP SCHEMA IF EXISTS ${ident(this.oldSchema)} CASCADE`);
    await this.db.query(`DROP SCHEMA IF EXISTS ${ident(this.nextSchema)} CASCADE`);
  }

  private report(phase: RebuildPhase): Promise<void> {
    return this.reportIn(this.db, phase, this.eventsApplied);
  }

  private reportIn(
    db: SqlExecutor,
    phase: RebuildPhase,
    applied: number,
    total = Math.max(this.eventsTotal, applied),
  ): Promise<void> {
    return rebuildRecords.progress(db, this.rebuildId, {
      phase,
      eventsApplied: applied,
      eventsTotal: total,
      at: new Date(),
    });
  }
}

const ident = (name: string): string => `"${name.replace(/"/g, '""')}"`;
