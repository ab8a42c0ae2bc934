import { transactionStreamId } from '../../domain/transaction/transaction.events';
import { WalletDebited } from '../../domain/wallet/wallet.events';
import { SchemaScript } from '../sql/migrations';

/** Readers order by (transaction id, position) below every running transaction (docs/architecture.md, "Global order"). */
export const EVENT_STORE_SCHEMA: SchemaScript = {
  name: 'event-store',
  sql: `
CREATE TABLE IF NOT EXISTS es_streams (
  stream_id text PRIMARY KEY,
  revision bigint NOT NULL
);
CREATE TABLE IF NOT EXISTS es_events (
  global_position bigserial PRIMARY KEY,
  transaction_id xid8 NOT NULL DEFAULT pg_current_xact_id(),
  event_id uuid NOT NULL,
  stream_id text NOT NULL,
  stream_revision bigint NOT NULL,
  event_type text NOT NULL,
  schema_version integer NOT NULL,
  data jsonb NOT NULL,
  metadata jsonb NOT NULL,
  recorded_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  CONSTRAINT es_events_event_id_unique UNIQUE (event_id),
  CONSTRAINT es_events_stream_revision_unique UNIQUE (stream_id, stream_revision)
);
CREATE INDEX IF NOT EXISTS es_events_global_order ON es_events (transaction_id, global_position);
CREATE INDEX IF NOT EXISTS es_events_by_correlation ON es_events ((metadata->>'correlationId'));
`,
};

/** Migration 11: the correlation index leaves out orders' own streams, which are read from the stream (decision 0114). */
export const CORRELATION_INDEX_OUTSIDE_ORDERS_SCHEMA: SchemaScript = {
  name: 'correlation-index-outside-orders',
  sql: `
CREATE INDEX IF NOT EXISTS es_events_by_correlation_outside_orders ON es_events ((metadata->>'correlationId'))
  WHERE stream_id NOT LIKE 'order-%';
DROP INDEX IF EXISTS es_events_by_correlation;
`,
};

/**
 * Migration 16: a stream's revision is its last event's, kept by the primary key (stream, revision), which is the
 * optimistic concurrency check; `es_streams` and the index on the global position alone go (decision 0153).
 */
export const STREAM_REVISION_KEY_SCHEMA: SchemaScript = {
  name: 'stream-revision-key',
  sql: `
ALTER TABLE es_events
  DROP CONSTRAINT IF EXISTS es_events_pkey,
  DROP CONSTRAINT IF EXISTS es_events_stream_revision_unique,
  ADD CONSTRAINT es_events_pkey PRIMARY KEY (stream_id, stream_revision);
DROP TABLE IF EXISTS es_streams;
`,
};

/**
 * Migration 18: an event id is unique within its stream, not across the log (decision 0158). The index's entries
 * then follow the stream's: an order's events go to the index's growing end, not to random pages.
 */
export const EVENT_IDS_PER_STREAM_SCHEMA: SchemaScript = {
  name: 'event-ids-per-stream',
  sql: `
ALTER TABLE es_events
  DROP CONSTRAINT IF EXISTS es_events_stream_event_id_unique,
  ADD CONSTRAINT es_events_stream_event_id_unique UNIQUE (stream_id, event_id),
  DROP CONSTRAINT IF EXISTS es_events_event_id_unique;
`,
};

/** The streams an event-id index covers: an order's own stream is kept from repeats by its decider (decision 0165). */
export const OUTSIDE_ORDER_STREAMS = `stream_id NOT LIKE '${transactionStreamId('%')}'`;

/**
 * Migration 19: the event-id index leaves out orders' own streams (decision 0165). Their appends name the revision
 * they expect, and the transaction decider makes a no-op of a command whose event is in the stream already, so the
 * index only held two entries per order that no repeat needed. The index keeps the constraint's name, which the
 * appends and the import recognise.
 */
export const EVENT_IDS_OUTSIDE_ORDERS_SCHEMA: SchemaScript = {
  name: 'event-ids-outside-orders',
  sql: `
ALTER TABLE es_events DROP CONSTRAINT IF EXISTS es_events_stream_event_id_unique;
CREATE UNIQUE INDEX IF NOT EXISTS es_events_stream_event_id_unique ON es_events (stream_id, event_id)
  WHERE ${OUTSIDE_ORDER_STREAMS};
`,
};

/** An order's debit: the one wallet event an order's correlation id names at most once (decision 0174). */
export const ORDER_DEBIT_TYPE: WalletDebited['type'] = 'WalletDebited';

/** The events the event-id index covers: outside orders' own streams, and not an order's debit (decisions 0165, 0174). */
export const EVENT_IDS_INDEXED = `${OUTSIDE_ORDER_STREAMS} AND event_type <> '${ORDER_DEBIT_TYPE}'`;

/** The events whose correlation id is unique: an order's debit, whose correlation is its order (decision 0174). */
export const ORDER_DEBITS = `event_type = '${ORDER_DEBIT_TYPE}'`;

/**
 * Migration 20: one debit per order, enforced by the log (decision 0174). An order's debit had two entries, its id
 * in the event-id index and its order in the correlation index; one unique entry by its order now does both jobs (a
 * debit's id is made from its order, so a repeat collides on the order), and the other two indexes leave debits out.
 * A log holding two debits of one order, a double charge, fails this step instead of being carried forward.
 */
export const ONE_DEBIT_PER_ORDER_SCHEMA: SchemaScript = {
  name: 'one-debit-per-order',
  sql: `
CREATE UNIQUE INDEX IF NOT EXISTS es_events_one_debit_per_order ON es_events ((metadata->>'correlationId'))
  WHERE ${ORDER_DEBITS};
DROP INDEX IF EXISTS es_events_stream_event_id_unique;
CREATE UNIQUE INDEX es_events_stream_event_id_unique ON es_events (stream_id, event_id)
  WHERE ${EVENT_IDS_INDEXED};
DROP INDEX IF EXISTS es_events_by_correlation_outside_orders;
CREATE INDEX es_events_by_correlation_outside_orders ON es_events ((metadata->>'correlationId'))
  WHERE ${EVENT_IDS_INDEXED};
`,
};

/** The log's tables as the migrations leave them, for a store opened without the rest of the service's schema. */
export const EVENT_LOG_SCRIPTS: readonly SchemaScript[] = [
  EVENT_STORE_SCHEMA,
  CORRELATION_INDEX_OUTSIDE_ORDERS_SCHEMA,
  STREAM_REVISION_KEY_SCHEMA,
  EVENT_IDS_PER_STREAM_SCHEMA,
  EVENT_IDS_OUTSIDE_ORDERS_SCHEMA,
  ONE_DEBIT_PER_ORDER_SCHEMA,
];
