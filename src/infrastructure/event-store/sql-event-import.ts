import {
  DuplicateEventIdError,
  HistoricalEvent,
  WrongExpectedRevisionError,
} from '../../application/ports/event-store.port';
import { SqlDatabase, SqlExecutor, SQLSTATE, constraintOf, sqlStateOf } from '../sql/sql-database';
import { lastRevisions } from './sql-stream-revisions';
import { isOrderDebit, storedDebitsOf } from './sql-order-debits';

/** The SQL store's `importEvents`: a batch is one transaction, so its events keep the given order in the global order. */
export async function importHistoricalEvents(db: SqlDatabase, events: readonly HistoricalEvent[]): Promise<void> {
  if (events.length === 0) return;
  try {
    await db.transaction(async (tx) => {
      // Read, not locked: a concurrent writer at the same revision makes the insert fail on the primary key.
      const outOfPlace = await firstOutOfPlace(tx, events);
      if (outOfPlace) throw outOfPlace;
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
    });
  } catch (error) {
    if (sqlStateOf(error) !== SQLSTATE.uniqueViolation) throw error;
    if (constraintOf(error) === 'es_events_stream_event_id_unique')
      throw new DuplicateEventIdError(await storedOrRepeated(db, events));
    if (constraintOf(error) === 'es_events_one_debit_per_order')
      throw new DuplicateEventIdError(await debitsOfDebitedOrders(db, events));
    // Another writer took a revision between the read and the insert.
    throw (await firstOutOfPlace(db, events)) ?? error;
  }
}

/** The first event that does not follow its stream's last one (or the batch's event before it), as the port's error. */
async function firstOutOfPlace(
  db: SqlExecutor,
  events: readonly HistoricalEvent[],
): Promise<WrongExpectedRevisionError | null> {
  const revisions = await lastRevisions(db, [...new Set(events.map((event) => event.streamId))]);
  for (const event of events) {
    const last = revisions.get(event.streamId) ?? -1;
    if (event.revision !== last + 1)
      return new WrongExpectedRevisionError(
        event.streamId,
        event.revision - 1 < 0 ? 'no_stream' : event.revision - 1,
        last < 0 ? 'no_stream' : last,
      );
    revisions.set(event.streamId, event.revision);
  }
  return null;
}

/** The batch's order debits whose order has one in the log already or twice in the batch (decision 0174). */
async function debitsOfDebitedOrders(db: SqlExecutor, events: readonly HistoricalEvent[]): Promise<string[]> {
  const debits = events.filter(isOrderDebit);
  const rows = await storedDebitsOf(
    db,
    debits.map((event) => event.metadata.correlationId),
  );
  const debited = new Set(rows.map((row) => row.order_id));
  const seen = new Set<string>();
  return debits
    .filter((event) => {
      const order = event.metadata.correlationId;
      const again = debited.has(order) || seen.has(order);
      seen.add(order);
      return again;
    })
    .map((event) => event.eventId);
}

/** The ids the events' streams hold already, or else those the batch carries twice for one stream (decision 0158). */
async function storedOrRepeated(db: SqlExecutor, events: readonly HistoricalEvent[]): Promise<string[]> {
  const rows = await db.query<{ event_id: string }>(
    `SELECT e.event_id::text AS event_id
       FROM unnest($1::text[], $2::uuid[]) AS v(stream_id, event_id)
       JOIN es_events e ON e.stream_id = v.stream_id AND e.event_id = v.event_id`,
    [events.map((event) => event.streamId), events.map((event) => event.eventId)],
  );
  if (rows.length) return rows.map((row) => row.event_id);
  const places = new Set<string>();
  const repeated = new Set<string>();
  for (const event of events) {
    const place = `${event.streamId}\u0000${event.eventId}`;
    if (places.has(place)) repeated.add(event.eventId);
    places.add(place);
  }
  return [...repeated];
}
