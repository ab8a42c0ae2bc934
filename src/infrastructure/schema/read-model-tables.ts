import { PROJECTION_GROUPS } from '../projections/projection-groups';
import { ReadModelTables } from '../projections/sql-projection';
import { splitStatements } from '../sql/migrations';
import { SqlExecutor } from '../sql/sql-database';

const UNRECORDED_SCHEMA_VERSION = 1;
/** Recorded for a read model new to a database already following the log: below every real version, so a rebuild fills it. */
const UNFILLED_SCHEMA_VERSION = 0;

/** Gives each read model without a recorded version its tables in the migration transaction; lower versions are rebuilt later. */
export async function ensureReadModelTables(tx: SqlExecutor, projections: readonly ReadModelTables[]): Promise<void> {
  const recorded = await tx.query<{ name: string }>(
    'SELECT name FROM projection_versions WHERE schema_version IS NOT NULL',
  );
  const known = new Set(recorded.map((row) => row.name));
  const followedTheLog = await readModelsFollowedTheLog(tx);
  for (const projection of projections) {
    if (known.has(projection.name)) continue;
    const before = await tableCount(tx);
    for (const statement of splitStatements(projection.schema.sql)) await tx.query(statement);
    const created = (await tableCount(tx)) > before;
    let version = projection.schemaVersion;
    if (!created) version = UNRECORDED_SCHEMA_VERSION;
    else if (followedTheLog) version = UNFILLED_SCHEMA_VERSION;
    await tx.query(
      `INSERT INTO projection_versions (name, version, schema_version) VALUES ($1, 1, $2)
       ON CONFLICT (name) DO UPDATE SET schema_version = EXCLUDED.schema_version`,
      [projection.name, version],
    );
  }
}

async function readModelsFollowedTheLog(tx: SqlExecutor): Promise<boolean> {
  const table = await tx.query<{ present: boolean }>(
    `SELECT to_regclass('projection_checkpoints') IS NOT NULL AS present`,
  );
  if (!table[0]?.present) return false;
  const rows = await tx.query<{ name: string }>(
    'SELECT name FROM projection_checkpoints WHERE name = $1 AND commit_position IS NOT NULL',
    [PROJECTION_GROUPS.readModels],
  );
  return rows.length > 0;
}

async function tableCount(tx: SqlExecutor): Promise<number> {
  const rows = await tx.query<{ count: number }>(
    `SELECT count(*)::int AS count FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`,
  );
  return rows[0].count;
}
