import { BILL_FETCHES_SCHEMA, BILL_FETCH_PROVIDER_REF_SCHEMA } from '../bills/sql-bill-fetch-store';
import {
  CORRELATION_INDEX_OUTSIDE_ORDERS_SCHEMA,
  EVENT_STORE_SCHEMA,
  STREAM_REVISION_KEY_SCHEMA,
  EVENT_IDS_PER_STREAM_SCHEMA,
  EVENT_IDS_OUTSIDE_ORDERS_SCHEMA,
  ONE_DEBIT_PER_ORDER_SCHEMA,
} from '../event-store/sql-event-store.schema';
import { IDEMPOTENCY_EXPIRY_RANGES_SCHEMA, IDEMPOTENCY_SCHEMA } from '../idempotency/idempotency.schema';
import { JOBS_SCHEMA } from '../jobs/jobs.schema';
import { CHECKPOINT_SCHEMA } from '../projections/checkpoint-store';
import { PROJECTION_VERSIONS_SCHEMA } from '../projections/projection-versions';
import { RATE_LIMIT_SCHEMA } from '../rate-limit/sql-rate-limiter';
import { RATE_LIMIT_BUCKETS_IN_PLACE_SCHEMA, RATE_LIMIT_BUCKETS_SCHEMA } from '../rate-limit/sql-token-buckets';
import { SchemaScript } from '../sql/migrations';
import { Migration } from '../sql/schema-history';
import { WEBHOOK_SCHEMA } from '../webhooks/sql-webhook-delivery-store';
import { ACCESS_FENCES_SCHEMA } from '../access/sql-access-fences';
import { RETENTION_SCHEMA } from '../retention/sql-retention';
import { KEY_REFUSALS_SCHEMA } from '../access/sql-key-usage';
import { WALLET_SNAPSHOTS_SCHEMA, WALLET_SNAPSHOT_SEALS_SCHEMA } from '../wallet-snapshots/sql-wallet-snapshots';
import { WEBHOOK_DAILY_STATS_SCHEMA } from '../webhooks/webhook-daily-stats.schema';
import { KEY_RECORDS_SCHEMA } from '../access/key-record-migration';
import { EVENT_STREAM_LEASES_SCHEMA } from '../events-feed/sql-event-stream-leases';
import { BACK_OFFICE_ACTIONS_SCHEMA } from '../back-office/sql-back-office-action-log';
import { OPERATOR_LAST_USE_SCHEMA } from '../back-office/sql-operator-token-usage';
import { RECONCILIATION_RUNS_SCHEMA } from '../reconciliation/sql-reconciliation-runs';

const step = (version: number, name: string, ...scripts: readonly SchemaScript[]): Migration => ({
  version,
  name,
  sql: scripts.map((script) => script.sql.trim()).join('\n'),
});

/**
 * Every table but the read models' (read-model-tables.ts). Append a migration per change and never edit a shipped one:
 * the service refuses a database whose recorded step text changed (decision 0094).
 */
export const SCHEMA_MIGRATIONS: readonly Migration[] = [
  // What releases without a history ran at every start; it only creates what is missing, so it adopts such a database.
  step(
    1,
    'baseline',
    EVENT_STORE_SCHEMA,
    CHECKPOINT_SCHEMA,
    PROJECTION_VERSIONS_SCHEMA,
    JOBS_SCHEMA,
    IDEMPOTENCY_SCHEMA,
    BILL_FETCHES_SCHEMA,
    WEBHOOK_SCHEMA,
    RATE_LIMIT_SCHEMA,
  ),
  {
    version: 2,
    name: 'projection-schema-versions',
    sql: `
-- The schema version of each read model's tables, as declared by the code that built them.
ALTER TABLE projection_versions ADD COLUMN schema_version integer;
`,
  },
  step(3, 'access-fences-and-retention', ACCESS_FENCES_SCHEMA, RETENTION_SCHEMA),
  step(4, 'key-refusals', KEY_REFUSALS_SCHEMA),
  step(5, 'wallet-snapshots', WALLET_SNAPSHOTS_SCHEMA),
  step(6, 'bill-fetch-provider-ref', BILL_FETCH_PROVIDER_REF_SCHEMA),
  step(7, 'webhook-daily-stats', WEBHOOK_DAILY_STATS_SCHEMA),
  step(8, 'key-records', KEY_RECORDS_SCHEMA),
  step(9, 'event-stream-leases', EVENT_STREAM_LEASES_SCHEMA),
  step(10, 'wallet-snapshot-seals', WALLET_SNAPSHOT_SEALS_SCHEMA),
  step(11, 'correlation-index-outside-orders', CORRELATION_INDEX_OUTSIDE_ORDERS_SCHEMA),
  step(12, 'back-office-actions', BACK_OFFICE_ACTIONS_SCHEMA, OPERATOR_LAST_USE_SCHEMA),
  step(13, 'reconciliation-runs', RECONCILIATION_RUNS_SCHEMA),
  step(14, 'rate-limit-buckets', RATE_LIMIT_BUCKETS_SCHEMA),
  step(15, 'idempotency-expiry-ranges', IDEMPOTENCY_EXPIRY_RANGES_SCHEMA),
  step(16, 'stream-revision-key', STREAM_REVISION_KEY_SCHEMA),
  step(17, 'rate-limit-buckets-in-place', RATE_LIMIT_BUCKETS_IN_PLACE_SCHEMA),
  step(18, 'event-ids-per-stream', EVENT_IDS_PER_STREAM_SCHEMA),
  step(19, 'event-ids-outside-orders', EVENT_IDS_OUTSIDE_ORDERS_SCHEMA),
  step(20, 'one-debit-per-order', ONE_DEBIT_PER_ORDER_SCHEMA),
];
