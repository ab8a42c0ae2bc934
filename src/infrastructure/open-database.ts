import { ServiceConfig } from '../config/service-config';
import { READ_MODEL_TABLES } from './read-models/read-model-projections';
import { ensureReadModelTables } from './schema/read-model-tables';
import { SCHEMA_MIGRATIONS } from './schema/schema-migrations';
import { migrate } from './sql/schema-history';
import { PostgresDatabase } from './sql/postgres-database';
import { SqlDatabase } from './sql/sql-database';

/** Opens the configured mode's database and migrates it; with eventstoredb it holds everything but the events. */
export async function openDatabase(config: ServiceConfig): Promise<SqlDatabase> {
  if (!config.databaseUrl)
    throw new Error(
      'no database to open: embedded mode needs its server started first (main.ts), the other modes DATABASE_URL',
    );
  const db: SqlDatabase = new PostgresDatabase({ connectionString: config.databaseUrl, maxConnections: 20 });
  try {
    await migrateServiceDatabase(db);
  } catch (error) {
    await db.close().catch(() => undefined);
    throw error;
  }
  return db;
}

export function migrateServiceDatabase(db: SqlDatabase, upTo?: number): Promise<number[]> {
  const complete = upTo === undefined || upTo >= SCHEMA_MIGRATIONS.length;
  return migrate(db, SCHEMA_MIGRATIONS, {
    upTo,
    then: complete ? (tx) => ensureReadModelTables(tx, READ_MODEL_TABLES) : undefined,
  });
}
