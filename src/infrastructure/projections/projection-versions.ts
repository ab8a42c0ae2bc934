import { RebuildPhase, RebuildProgress, RebuildState } from '../../application/ports/projections.port';
import { SchemaScript } from '../sql/migrations';
import { SqlExecutor } from '../sql/sql-database';

/** Read-model versions and rebuilds, in the database so any process can report another's rebuild; one rebuild per projection at a time. */
export const PROJECTION_VERSIONS_SCHEMA: SchemaScript = {
  name: 'projection-versions',
  sql: `
CREATE TABLE IF NOT EXISTS projection_versions (
  name text PRIMARY KEY,
  version integer NOT NULL,
  rebuilt_at timestamptz,
  rebuild_id text
);
CREATE TABLE IF NOT EXISTS projection_rebuilds (
  rebuild_id text PRIMARY KEY,
  projection text NOT NULL,
  state text NOT NULL,
  phase text NOT NULL,
  events_applied bigint NOT NULL DEFAULT 0,
  events_total bigint NOT NULL DEFAULT 0,
  version_before integer NOT NULL,
  version_after integer,
  error text,
  started_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  finished_at timestamptz
);
CREATE UNIQUE INDEX IF NOT EXISTS projection_rebuilds_one_running ON projection_rebuilds (projection) WHERE state = 'running';
`,
};

const FIRST_VERSION = 1;

interface RebuildRow {
  rebuild_id: string;
  projection: string;
  state: RebuildState;
  phase: RebuildPhase;
  events_applied: string;
  events_total: string;
  version_before: number;
  version_after: number | null;
  error: string | null;
  started_at: Date | string;
  updated_at: Date | string;
  finished_at: Date | string | null;
}

const REBUILD_COLUMNS = `rebuild_id, projection, state, phase, events_applied::text AS events_applied, events_total::text AS events_total,
  version_before, version_after, error, started_at, updated_at, finished_at`;

interface VersionRow {
  version: number;
  rebuiltAt: string | null;
}

export const projectionVersions = {
  async all(db: SqlExecutor): Promise<Map<string, VersionRow>> {
    const rows = await db.query<{ name: string; version: number; rebuilt_at: Date | string | null }>(
      'SELECT name, version, rebuilt_at FROM projection_versions',
    );
    return new Map(
      rows.map((row) => [
        row.name,
        { version: row.version, rebuiltAt: row.rebuilt_at === null ? null : iso(row.rebuilt_at) },
      ]),
    );
  },

  async current(db: SqlExecutor, name: string): Promise<number> {
    const rows = await db.query<{ version: number }>('SELECT version FROM projection_versions WHERE name = $1', [name]);
    return rows[0]?.version ?? FIRST_VERSION;
  },

  /** Called in the transaction that switches reads over: records the code's schema version, returns the new version. */
  async bump(tx: SqlExecutor, name: string, rebuildId: string, at: Date, schemaVersion: number): Promise<number> {
    const rows = await tx.query<{ version: number }>(
      `INSERT INTO projection_versions (name, version, rebuilt_at, rebuild_id, schema_version) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (name) DO UPDATE
         SET version = projection_versions.version + 1, rebuilt_at = EXCLUDED.rebuilt_at, rebuild_id = EXCLUDED.rebuild_id,
             schema_version = EXCLUDED.schema_version
       RETURNING version`,
      [name, FIRST_VERSION + 1, at.toISOString(), rebuildId, schemaVersion],
    );
    return rows[0].version;
  },

  async schemaVersions(db: SqlExecutor): Promise<Map<string, number>> {
    const rows = await db.query<{ name: string; schema_version: number }>(
      'SELECT name, schema_version FROM projection_versions WHERE schema_version IS NOT NULL',
    );
    return new Map(rows.map((row) => [row.name, row.schema_version]));
  },
};

export const rebuildRecords = {
  async abandonStale(db: SqlExecutor, projection: string, staleBefore: Date): Promise<void> {
    await db.query(
      `UPDATE projection_rebuilds SET state = 'failed', error = 'abandoned: its process stopped reporting progress', finished_at = updated_at
        WHERE projection = $1 AND state = 'running' AND updated_at < $2`,
      [projection, staleBefore.toISOString()],
    );
  },

  async insert(
    db: SqlExecutor,
    record: { rebuildId: string; projection: string; versionBefore: number; at: Date },
  ): Promise<boolean> {
    const rows = await db.query<{ rebuild_id: string }>(
      `INSERT INTO projection_rebuilds (rebuild_id, projection, state, phase, version_before, started_at, updated_at)
       VALUES ($1, $2, 'running', 'building', $3, $4, $4)
       ON CONFLICT (projection) WHERE state = 'running' DO NOTHING
       RETURNING rebuild_id`,
      [record.rebuildId, record.projection, record.versionBefore, record.at.toISOString()],
    );
    return rows.length === 1;
  },

  async progress(
    db: SqlExecutor,
    rebuildId: string,
    update: { phase: RebuildPhase; eventsApplied: number; eventsTotal: number; at: Date },
  ): Promise<void> {
    await db.query(
      `UPDATE projection_rebuilds SET phase = $2, events_applied = $3, events_total = $4, updated_at = $5 WHERE rebuild_id = $1`,
      [rebuildId, update.phase, update.eventsApplied, update.eventsTotal, update.at.toISOString()],
    );
  },

  async switched(tx: SqlExecutor, rebuildId: string, versionAfter: number, at: Date): Promise<void> {
    await tx.query(
      `UPDATE projection_rebuilds SET phase = 'dropping_old', version_after = $2, updated_at = $3 WHERE rebuild_id = $1`,
      [rebuildId, versionAfter, at.toISOString()],
    );
  },

  async finish(
    db: SqlExecutor,
    rebuildId: string,
    outcome: { state: 'completed' | 'failed'; error: string | null; at: Date },
  ): Promise<void> {
    await db.query(
      `UPDATE projection_rebuilds SET state = $2, phase = CASE WHEN $2 = 'completed' THEN 'done' ELSE phase END, error = $3, updated_at = $4, finished_at = $4
        WHERE rebuild_id = $1`,
      [rebuildId, outcome.state, outcome.error, outcome.at.toISOString()],
    );
  },

  async find(db: SqlExecutor, rebuildId: string): Promise<RebuildProgress | null> {
    const rows = await db.query<RebuildRow>(
      `SELECT ${REBUILD_COLUMNS} FROM projection_rebuilds WHERE rebuild_id = $1`,
      [rebuildId],
    );
    return rows[0] ? toProgress(rows[0]) : null;
  },

  async running(db: SqlExecutor): Promise<RebuildProgress[]> {
    const rows = await db.query<RebuildRow>(
      `SELECT ${REBUILD_COLUMNS} FROM projection_rebuilds WHERE state = 'running'`,
    );
    return rows.map(toProgress);
  },
};

function toProgress(row: RebuildRow): RebuildProgress {
  const applied = Number(row.events_applied);
  const total = Math.max(Number(row.events_total), applied);
  const started = new Date(row.started_at).getTime();
  const last = new Date(row.finished_at ?? row.updated_at).getTime();
  const seconds = (last - started) / 1000;
  const rate = seconds > 0 ? applied / seconds : 0;
  const remaining = total - applied;
  const eta = row.state !== 'running' || remaining === 0 ? 0 : rate > 0 ? Math.ceil(remaining / rate) : null;
  return {
    rebuildId: row.rebuild_id,
    projection: row.projection,
    state: row.state,
    phase: row.phase,
    eventsApplied: applied,
    eventsTotal: total,
    eventsPerSecond: Math.round(rate),
    etaSeconds: eta,
    versionBefore: row.version_before,
    versionAfter: row.version_after,
    startedAt: iso(row.started_at),
    updatedAt: iso(row.updated_at),
    finishedAt: row.finished_at === null ? null : iso(row.finished_at),
    error: row.error,
  };
}

const iso = (value: Date | string): string => new Date(value).toISOString();
