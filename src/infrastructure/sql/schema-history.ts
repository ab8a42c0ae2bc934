import { createHash } from 'node:crypto';
import { SqlDatabase, SqlExecutor, detailOf } from './sql-database';
import { splitStatements } from './migrations';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

interface AppliedMigration {
  version: number;
  name: string;
  checksum: string;
}

export class MigrationHistoryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MigrationHistoryError';
  }
}

/** A step that failed on this database's data: named, with PostgreSQL's message and detail; nothing of it is applied. */
export class MigrationStepError extends Error {
  constructor(migration: Migration, cause: unknown) {
    const message = cause instanceof Error ? cause.message : String(cause);
    const detail = detailOf(cause);
    super(
      `schema migration ${migration.version} (${migration.name}) failed, and nothing of it was applied: ${message}${detail ? ` (${detail})` : ''}`,
      { cause },
    );
    this.name = 'MigrationStepError';
  }
}

/** Same key as the schema scripts of releases without a history: an old and a new process never interleave. */
const SCHEMA_LOCK = 'schema-migrations';

const HISTORY_TABLE = `
CREATE TABLE IF NOT EXISTS schema_migrations (
  version integer PRIMARY KEY,
  name text NOT NULL,
  checksum text NOT NULL,
  applied_at timestamptz NOT NULL DEFAULT now()
)`;

export const checksumOf = (migration: Migration): string => createHash('sha256').update(migration.sql).digest('hex');

/** Brings the schema up to `upTo` in one transaction under the advisory lock; `then` runs in it afterwards; returns the versions applied. */
export async function migrate(
  db: SqlDatabase,
  migrations: readonly Migration[],
  options: { upTo?: number; then?: (tx: SqlExecutor) => Promise<void> } = {},
): Promise<number[]> {
  checkNumbering(migrations);
  const target = options.upTo ?? migrations.length;
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [SCHEMA_LOCK]);
    await tx.query(HISTORY_TABLE);
    const applied = await appliedMigrations(tx);
    checkHistory(migrations, applied);
    const done = new Set(applied.map((row) => row.version));
    const now: number[] = [];
    for (const migration of migrations) {
      if (migration.version > target || done.has(migration.version)) continue;
      try {
        for (const statement of splitStatements(migration.sql)) await tx.query(statement);
      } catch (error) {
        throw new MigrationStepError(migration, error);
      }
      await tx.query('INSERT INTO schema_migrations (version, name, checksum) VALUES ($1, $2, $3)', [
        migration.version,
        migration.name,
        checksumOf(migration),
      ]);
      now.push(migration.version);
    }
    if (options.then) await options.then(tx);
    return now;
  });
}

async function appliedMigrations(db: SqlExecutor): Promise<AppliedMigration[]> {
  return db.query<AppliedMigration>('SELECT version, name, checksum FROM schema_migrations ORDER BY version');
}

function checkNumbering(migrations: readonly Migration[]): void {
  migrations.forEach((migration, index) => {
    if (migration.version !== index + 1)
      throw new MigrationHistoryError(
        `migration ${migration.name} has number ${migration.version}, expected ${index + 1}: migrations are numbered 1, 2, 3, … in order`,
      );
  });
}

/** A recorded step whose text changed is refused; steps recorded by a newer release are left alone (rolling deployments). */
function checkHistory(migrations: readonly Migration[], applied: readonly AppliedMigration[]): void {
  for (const row of applied) {
    const known = migrations.find((migration) => migration.version === row.version);
    if (known && checksumOf(known) !== row.checksum) {
      throw new MigrationHistoryError(
        `schema migration ${row.version} (${row.name}) was changed after it was applied to this database; put schema changes in a new migration`,
      );
    }
  }
}
