-- WAL per insert into an index of order ids led by their second (as the service makes them, decision 0113) against
-- ids that are all random (as an id derived from a hash would be): decision 0178, docs/performance.md
-- "2026-12-02 (evening)". Run against a scratch server:
--   psql -h 127.0.0.1 -U postgres -d postgres -v existing=1000000 -v inserts=30000 -f bench/id-locality-probe.sql
-- It creates and drops the database `id_locality_probe`.
\set QUIET on
\set ON_ERROR_STOP on
DROP DATABASE IF EXISTS id_locality_probe;
CREATE DATABASE id_locality_probe;
\c id_locality_probe
CREATE TABLE led_by_second (id text PRIMARY KEY);
CREATE TABLE all_random (id text PRIMARY KEY);
INSERT INTO led_by_second
  SELECT 'ord_' || lpad(to_hex(1700000000 + i / 100), 8, '0') || substr(md5(random()::text), 1, 16)
    FROM generate_series(1, :existing) i;
INSERT INTO all_random SELECT 'ord_' || substr(md5(random()::text), 1, 24) FROM generate_series(1, :existing) i;
VACUUM ANALYZE led_by_second;
VACUUM ANALYZE all_random;
CHECKPOINT;
SELECT pg_current_wal_lsn() AS led_from \gset
INSERT INTO led_by_second
  SELECT 'ord_' || lpad(to_hex(1800000000 + i / 100), 8, '0') || substr(md5(random()::text), 1, 16)
    FROM generate_series(1, :inserts) i;
SELECT pg_current_wal_lsn() AS led_to \gset
CHECKPOINT;
SELECT pg_current_wal_lsn() AS random_from \gset
INSERT INTO all_random SELECT 'ord_' || substr(md5(random()::text), 1, 24) FROM generate_series(1, :inserts) i;
SELECT pg_current_wal_lsn() AS random_to \gset
\unset QUIET
SELECT :existing AS existing_ids, :inserts AS inserts_after_checkpoint,
       round(pg_wal_lsn_diff(:'led_to', :'led_from') / :inserts) AS wal_bytes_led_by_second,
       round(pg_wal_lsn_diff(:'random_to', :'random_from') / :inserts) AS wal_bytes_all_random;
\c postgres
DROP DATABASE id_locality_probe;
