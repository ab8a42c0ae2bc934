import { SqlExecutor } from '../sql/sql-database';

/** Each stream's revision: its last event's, found through the primary key; streams without events are left out. */
export async function lastRevisions(db: SqlExecutor, streamIds: readonly string[]): Promise<Map<string, number>> {
  const rows = await db.query<{ stream_id: string; revision: string }>(
    `SELECT s.stream_id, last.revision::text AS revision FROM unnest($1::text[]) AS s(stream_id)
       CROSS JOIN LATERAL (SELECT max(e.stream_revision) AS revision FROM es_events e WHERE e.stream_id = s.stream_id) AS last
      WHERE last.revision IS NOT NULL`,
    [[...streamIds]],
  );
  return new Map(rows.map((row) => [row.stream_id, Number(row.revision)]));
}
