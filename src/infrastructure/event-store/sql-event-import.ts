import {
  DuplicateEventIdError,
  HistoricalEvent,
  WrongExpectedRevisionError,
} from '../../application/ports/event-store.port';
import { SqlDatabase, SqlExecutor, SQLSTATE, constraintOf, sqlStateOf } from '../sql/sql-database';

/** The SQL store's `importEvents`: a batch is one transaction, so its events keep the given order in the global order. */
export async function importHistoricalEvents(db: SqlDatabase, events: readonly HistoricalEvent[]): Promise<void> {
  if (events.length === 0) return;
  try {
    await db.transaction(async (tx) => {
      const lastRevisions = await lockedRevisions(tx, [...new Set(events.map((event) => event.streamId))]);
      for (const event of events) {
        const last = lastRevisions.get(event.streamId) ?? -1;
        if (event.revision !== last + 1) {
          throw new WrongExpectedRevisionError(
            event.streamId,
            event.revision - 1 < 0 ? 'no_stream' : event.revision - 1,
            last < 0 ? 'no_stream' : last,
          );
        }
        lastRevisions.set(event.streamId, event.revision);
      }
      const rows = events.map((event, ord) => ({
        ord,
        event_id: event.eventId,
        stream_id: event.streamId,
        stream_revision: event.revision,
        event_type: event.type,
        schema_version: event.schemaVersion,
        data: event.data,
        metadata: event.metadata,
        recorded_at: event.recordedAt,
      }));
      await tx.query(
        `INSERT INTO es_events (event_id, stream_id, stream_revision, event_type, schema_version, data, metadata, recorded_at)
         SELECT v.event_id, v.stream_id, v.stream_revision, v.event_type, v.schema_version, v.data, v.metadata, v.recorded_at
           FROM jsonb_to_recordset($1::jsonb)
             AS v(ord integer, event_id uuid, stream_id text, stream_revision bigint, event_type text, schema_version integer, data jsonb, metadata jsonb,
                  recorded_at timestamptz)
          ORDER BY v.ord`,
        [JSON.stringify(rows)],
      );
      await tx.query(
        `INSERT INTO es_streams (stream_id, revision) SELECT * FROM unnest($1::text[], $2::bigint[])
         ON CONFLICT (stream_id) DO UPDATE SET revision = EXCLUDED.revision`,
        [[...lastRevisions.keys()], [...lastRevisions.values()]],
      );
    });
  } catch (error) {
    if (sqlStateOf(error) === SQLSTATE.uniqueViolation && constraintOf(error) === 'es_events_event_id_unique') {
      throw new DuplicateEventIdError(await storedOrRepeated(db, events));
    }
    throw error;
  }
}

async function lockedRevisions(tx: SqlExecutor, streamIds: readonly string[]): Promise<Map<string, number>> {
  const rows = await tx.query<{ stream_id: string; revision: string }>(
    'SELECT stream_id, revision::text AS revision FROM es_streams WHERE stream_id = ANY($1::text[]) ORDER BY stream_id FOR UPDATE',
    [[...streamIds]],
  );
  return new Map(rows.map((row) => [row.stream_id, Number(row.revision)]));
}

async function storedOrRepeated(db: SqlExecutor, events: readonly HistoricalEvent[]): Promise<string[]> {
  const ids = events.map((event) => event.eventId);
  const rows = await db.query<{ event_id: string }>(
    'SELECT event_id::text AS event_id FROM es_events WHERE event_id = ANY($1::uuid[])',
    [ids],
  );
  if (rows.length) return rows.map((row) => row.event_id);
  return [...new Set(ids.filter((id, index) => ids.indexOf(id) !== index))];
}
