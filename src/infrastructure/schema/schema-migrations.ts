import { BILL_FETCHES_SCHEMA, BILL_FETCH_PROVIDER_REF_SCHEMA } from '../bills/sql-bill-fetch-store';
import { CORRELATION_INDEX_OUTSIDE_ORDERS_SCHEMA, EVENT_STORE_SCHEMA } from '../event-store/sql-event-store.schema';
import { IDEMPOTENCY_EXPIRY_RANGES_SCHEMA, IDEMPOTENCY_SCHEMA } from '../idempotency/idempotency.schema';
import { JOBS_SCHEMA } from '../jobs/jobs.schema';
import { CHECKPOINT_SCHEMA } from '../projections/checkpoint-store';
import { PROJECTION_VERSIONS_SCHEMA } from '../projections/projection-versions';
import { RATE_LIMIT_SCHEMA } from '../rate-limit/sql-rate-limiter';
import { RATE_LIMIT_BUCKETS_SCHEMA } from '../rate-limit/sql-token-buckets';
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

const joined = (scripts: readonly SchemaScript[]): string => scripts.map((script) => script.sql.trim()).join('\n');

/**
 * Every table but the read models' (read-model-tables.ts). Append a migration per change and never edit a shipped one:
 * the service refuses a database whose recorded step text changed (decision 0094).
 */
export const SCHEMA_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    // The scripts that releases without a history ran at every start. They only create what is
    // missing, so applying them to such a database adopts it as it is.
    name: 'baseline',
    sql: joined([
      EVENT_STORE_SCHEMA,
      CHECKPOINT_SCHEMA,
      PROJECTION_VERSIONS_SCHEMA,
      JOBS_SCHEMA,
      IDEMPOTENCY_SCHEMA,
      BILL_FETCHES_SCHEMA,
      WEBHOOK_SCHEMA,
      RATE_LIMIT_SCHEMA,
    ]),
  },
  {
    version: 2,
    name: 'projection-schema-versions',
    sql: `
-- The schema version of each read model's tables, as declared by the code that built them.
ALTER TABLE projection_versions ADD COLUMN schema_version integer;
`,
  },
  {
    version: 3,
    // Revocations that fail closed (a fence per partner and environment until the read models have
    // applied the change), and the indexes the retention purge walks.
    name: 'access-fences-and-retention',
    sql: joined([ACCESS_FENCES_SCHEMA, RETENTION_SCHEMA]),
  },
  {
    version: 4,
    // The refusals of restricted keys (caps, scope), counted for the key listings.
    name: 'key-refusals',
    sql: joined([KEY_REFUSALS_SCHEMA]),
  },
  {
    version: 5,
    // Wallets folded up to an event of their stream, so that a cold wallet reads only the events after it.
    name: 'wallet-snapshots',
    sql: joined([WALLET_SNAPSHOTS_SCHEMA]),
  },
  {
    version: 6,
    // The provider's handle of a bill fetch (Setu's fetch refId), which the payment of that bill must name.
    name: 'bill-fetch-provider-ref',
    sql: joined([BILL_FETCH_PROVIDER_REF_SCHEMA]),
  },
  {
    version: 7,
    // Webhook attempts per day, environment and result, for the overview's failure rate.
    name: 'webhook-daily-stats',
    sql: joined([WEBHOOK_DAILY_STATS_SCHEMA]),
  },
  {
    version: 8,
    // When each API key was last used; a restricted key's terms in its own row of rm_api_keys.
    name: 'key-records',
    sql: joined([KEY_RECORDS_SCHEMA]),
  },
  {
    version: 9,
    // The open event streams of every process, so that the limits per key and per partner hold across processes.
    name: 'event-stream-leases',
    sql: joined([EVENT_STREAM_LEASES_SCHEMA]),
  },
  {
    version: 10,
    // Snapshots sealed under the server secret: a row changed in the database is not trusted.
    name: 'wallet-snapshot-seals',
    sql: joined([WALLET_SNAPSHOT_SEALS_SCHEMA]),
  },
  {
    version: 11,
    // The correlation index no longer holds the events of orders' own streams (they are read from the stream).
    name: 'correlation-index-outside-orders',
    sql: joined([CORRELATION_INDEX_OUTSIDE_ORDERS_SCHEMA]),
  },
  {
    version: 12,
    // Operators' actions that are not events (webhook re-sends, rebuilds), and when each operator token was last used.
    name: 'back-office-actions',
    sql: joined([BACK_OFFICE_ACTIONS_SCHEMA, OPERATOR_LAST_USE_SCHEMA]),
  },
  {
    version: 13,
    // The summary of each reconciliation run (scheduled, a day judged again, an operator's), beside the log.
    name: 'reconciliation-runs',
    sql: joined([RECONCILIATION_RUNS_SCHEMA]),
  },
  {
    version: 14,
    // Token buckets (a sliding minute) in place of the fixed one-minute windows of rate_limit_windows.
    name: 'rate-limit-buckets',
    sql: joined([RATE_LIMIT_BUCKETS_SCHEMA]),
  },
  {
    version: 15,
    // One index entry fewer per topup: expired keys found by page ranges (decision 0151).
    name: 'idempotency-expiry-ranges',
    sql: joined([IDEMPOTENCY_EXPIRY_RANGES_SCHEMA]),
  },
];
