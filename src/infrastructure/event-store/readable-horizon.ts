/** SQL for the first transaction id a catch-up reader must not pass yet, so a lower position committed later is never skipped. */
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
