/**
 * SQL for the first transaction id a catch-up reader must not pass yet.
 *
 * Rows are read in (transaction id, position) order, and only below the oldest
 * transaction that was still running when the statement's snapshot was taken: a
 * transaction that took a lower position but commits later can then never be skipped.
 *
 * PostgreSQL's snapshot xmin covers the whole cluster, so a transaction left open in an
 * unrelated database would hold every reader back. This horizon drops the running
 * transactions positively known to belong to another database (pg_stat_activity's
 * backend_xid, compared on the low 32 bits); anything it cannot place, including
 * transactions that ended between the snapshot and the lookup, still counts, which is
 * the safe side. Without the privilege to read other roles' backend_xid (grant
 * pg_read_all_stats) it falls back to the plain snapshot xmin.
 */
export const READABLE_HORIZON = `(
  SELECT LEAST(
    pg_snapshot_xmax(snap),
    (SELECT min(running) FROM pg_snapshot_xip(snap) AS running
      WHERE NOT EXISTS (
        SELECT 1 FROM pg_stat_activity AS backend
         WHERE backend.datid IS NOT NULL
           AND backend.datname <> current_database()
           AND backend.backend_xid IS NOT NULL
           AND backend.backend_xid::text = (running::text::numeric % 4294967296)::text)))
    FROM pg_current_snapshot() AS snap)`;
