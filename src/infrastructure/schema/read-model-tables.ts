import { SqlProjection } from '../projections/sql-projection';
import { splitStatements } from '../sql/migrations';
import { SqlExecutor } from '../sql/sql-database';

/** The schema version the read models of releases that recorded none were built at. */
export const UNRECORDED_SCHEMA_VERSION = 1;

/**
 * Gives every read model whose schema version is not recorded yet its tables, in the migration
 * transaction. On a new database the projection's script creates them and its version is
 * recorded. On a database of a release that recorded no versions, the tables exist: the script
 * (which only creates what is missing) brings them to that release's shape, which is recorded as
 * version 1. A recorded version lower than the code's is not handled here: the service rebuilds
 * that read model blue/green once it runs (SqlProjectionAdmin.startDueRebuilds).
 */
export async function ensureReadModelTables(tx: SqlExecutor, projections: readonly SqlProjection[]): Promise<void> {
  const recorded = await tx.query<{ name: string }>('SELECT name FROM projection_versions WHERE schema_version IS NOT NULL');
  const known = new Set(recorded.map((row) => row.name));
  for (const projection of projections) {
    if (known.has(projection.name)) continue;
    const before = await tableCount(tx);
    for (const statement of splitStatements(projection.schema.sql)) await tx.query(statement);
    const created = (await tableCount(tx)) > before;
    await tx.query(
      `INSERT INTO projection_versions (name, version, schema_version) VALUES ($1, 1, $2)
       ON CONFLICT (name) DO UPDATE SET schema_version = EXCLUDED.schema_version`,
      [projection.name, created ? projection.schemaVersion : UNRECORDED_SCHEMA_VERSION],
    );
  }
}

async function tableCount(tx: SqlExecutor): Promise<number> {
  const rows = await tx.query<{ count: number }>(
    `SELECT count(*)::int AS count FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`,
  );
  return rows[0].count;
}
