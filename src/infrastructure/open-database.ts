import { ServiceConfig } from '../config/service-config';
import { ACCESS_FENCES_SCHEMA } from './access/sql-access-fences';
import { RETENTION_SCHEMA } from './retention/sql-retention';
import { EVENT_STORE_SCHEMA } from './event-store/sql-event-store.schema';
import { BILL_FETCHES_SCHEMA } from './bills/sql-bill-fetch-store';
import { IDEMPOTENCY_SCHEMA } from './idempotency/idempotency.schema';
import { JOBS_SCHEMA } from './jobs/jobs.schema';
import { CHECKPOINT_SCHEMA } from './projections/checkpoint-store';
import { PROJECTION_VERSIONS_SCHEMA } from './projections/projection-versions';
import { READ_MODEL_PROJECTIONS } from './read-models/read-model-projections';
import { applySchema } from './sql/migrations';
import { WEBHOOK_SCHEMA } from './webhooks/sql-webhook-delivery-store';
import { RATE_LIMIT_SCHEMA } from './rate-limit/sql-rate-limiter';
import { PostgresDatabase } from './sql/postgres-database';
import { SqlDatabase } from './sql/sql-database';

/**
 * Opens the database of the configured mode and brings its schema up to date. Embedded and postgres modes
 * differ only in who runs the PostgreSQL server (the service itself, or someone else). In eventstoredb mode the
 * events live in EventStoreDB and this PostgreSQL database (DATABASE_URL) holds read models, checkpoints,
 * jobs and idempotency keys; the SQL event-store tables are created there too, and stay unused.
 */
export async function openDatabase(config: ServiceConfig): Promise<SqlDatabase> {
  if (!config.databaseUrl) throw new Error('no database to open: embedded mode needs its server started first (main.ts), the other modes DATABASE_URL');
  const db: SqlDatabase = new PostgresDatabase({ connectionString: config.databaseUrl, maxConnections: 20 });
  await applySchema(db, [
    EVENT_STORE_SCHEMA,
    CHECKPOINT_SCHEMA,
    PROJECTION_VERSIONS_SCHEMA,
    JOBS_SCHEMA,
    IDEMPOTENCY_SCHEMA,
    BILL_FETCHES_SCHEMA,
    WEBHOOK_SCHEMA,
    RATE_LIMIT_SCHEMA,
    ACCESS_FENCES_SCHEMA,
    RETENTION_SCHEMA,
    ...READ_MODEL_PROJECTIONS.map((projection) => projection.schema),
  ]);
  return db;
}
