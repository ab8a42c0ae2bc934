-- The log's WAL per sandbox topup as today's layout stores it (a row per event) against a row per append (the
-- debit and the order stream it opens in one row): docs/performance.md, "2026-12-02 (evening)". Run inside a
-- database the bench left (`npm run bench -- --tiny --no-embedded --keep-db`), which holds real topups:
--   psql -h 127.0.0.1 -U postgres -d bench_<id> -f bench/commit-row-probe.sql
-- It copies the topups' events into two scratch tables, measures, and drops them.
\set QUIET on
\set ON_ERROR_STOP on
DROP TABLE IF EXISTS probe_event_rows, probe_append_rows;
-- Today's layout, as the migrations left it: the same columns, defaults and indexes as es_events.
CREATE TABLE probe_event_rows (LIKE es_events INCLUDING ALL);
-- A row per append: its stream's events, and the stream it opens with its own events and shared metadata.
CREATE TABLE probe_append_rows (
  global_position bigserial NOT NULL,
  transaction_id xid8 NOT NULL DEFAULT pg_current_xact_id(),
  stream_id text NOT NULL,
  first_revision bigint NOT NULL,
  events jsonb NOT NULL,
  metadata jsonb NOT NULL,
  opened_stream_id text,
  opened_events jsonb,
  opened_metadata jsonb,
  debit_of text,
  recorded_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  PRIMARY KEY (stream_id, first_revision)
);
CREATE UNIQUE INDEX ON probe_append_rows (opened_stream_id) WHERE opened_stream_id IS NOT NULL;
CREATE INDEX ON probe_append_rows (transaction_id, global_position);
CREATE UNIQUE INDEX ON probe_append_rows (debit_of) WHERE debit_of IS NOT NULL;
CREATE TEMP TABLE topups AS
  SELECT d.stream_id, d.stream_revision, d.event_id, d.data, d.metadata, d.metadata->>'correlationId' AS order_id
    FROM es_events d
   WHERE d.event_type = 'WalletDebited'
     AND EXISTS (SELECT 1 FROM es_events o WHERE o.stream_id = 'order-' || (d.metadata->>'correlationId'))
   ORDER BY d.global_position;
SELECT count(*) AS topups FROM topups \gset
CHECKPOINT;
SELECT pg_current_wal_lsn() AS rows_from \gset
INSERT INTO probe_event_rows (event_id, stream_id, stream_revision, event_type, schema_version, data, metadata)
SELECT e.event_id, e.stream_id, e.stream_revision, e.event_type, e.schema_version, e.data, e.metadata
  FROM topups t
  JOIN es_events e ON (e.stream_id, e.stream_revision) = (t.stream_id, t.stream_revision)
                   OR e.stream_id = 'order-' || t.order_id
 ORDER BY t.stream_revision, t.stream_id, e.stream_id DESC, e.stream_revision;
SELECT pg_current_wal_lsn() AS rows_to \gset
CHECKPOINT;
SELECT pg_current_wal_lsn() AS appends_from \gset
INSERT INTO probe_append_rows (stream_id, first_revision, events, metadata, opened_stream_id, opened_events, opened_metadata, debit_of)
SELECT t.stream_id, t.stream_revision,
       jsonb_build_array(jsonb_build_object('id', t.event_id, 'type', 'WalletDebited', 'v', 1, 'data', t.data)),
       t.metadata,
       'order-' || t.order_id,
       (SELECT jsonb_agg(jsonb_build_object('id', o.event_id, 'type', o.event_type, 'v', o.schema_version, 'data', o.data)
                         ORDER BY o.stream_revision)
          FROM es_events o WHERE o.stream_id = 'order-' || t.order_id),
       (SELECT o.metadata FROM es_events o WHERE o.stream_id = 'order-' || t.order_id AND o.stream_revision = 0),
       t.order_id
  FROM topups t
 ORDER BY t.stream_revision, t.stream_id;
SELECT pg_current_wal_lsn() AS appends_to \gset
\unset QUIET
SELECT :topups AS topups,
       (SELECT count(*) FROM probe_event_rows) AS event_rows,
       round(pg_wal_lsn_diff(:'rows_to', :'rows_from') / :topups) AS wal_bytes_per_topup_event_rows,
       round(pg_relation_size('probe_event_rows')::numeric / :topups) AS heap_bytes_event_rows,
       (SELECT count(*) FROM probe_append_rows) AS append_rows,
       round(pg_wal_lsn_diff(:'appends_to', :'appends_from') / :topups) AS wal_bytes_per_topup_append_rows,
       round(pg_relation_size('probe_append_rows')::numeric / :topups) AS heap_bytes_append_rows;
DROP TABLE probe_event_rows, probe_append_rows;
