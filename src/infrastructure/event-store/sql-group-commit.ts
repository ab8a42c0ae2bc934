import {
  AppendResult,
  DomainEvent,
  EventMetadata,
  GlobalPosition,
  NewEvent,
} from '../../application/ports/event-store.port';
import { KeyBinding, OpenedStream } from '../../application/ports/key-binding-append.port';
import { WrongExpectedRevisionError } from '../../application/ports/event-store.port';
import { SqlDatabase, SQLSTATE, sqlStateOf } from '../sql/sql-database';
import { StatementBatcher } from '../sql/statement-batcher';
import { lastRevisions } from './sql-stream-revisions';
import { asStoredJson } from './as-stored-json';
import { EventRow, positionOf } from './sql-event-row';

/** Told the rows an append stored, as a read would return them, while it wants them. */
export interface StoredRowsListener {
  readonly listening: boolean;
  stored(rows: readonly EventRow[]): void;
}

interface ReturnedRow {
  stream_id: string;
  event_id: string;
  stream_revision: string;
  global_position: string;
  transaction_id: string;
  recorded_at: Date;
}

interface AppendAtRevision {
  streamId: string;
  events: readonly NewEvent<DomainEvent>[];
  expected: number;
  keys: readonly KeyBinding[];
  opened?: readonly OpenedStream<DomainEvent>[];
}

export const NO_STREAM = -1;
const expectedOf = (revision: number): number | 'no_stream' => (revision === NO_STREAM ? 'no_stream' : revision);

type AppendOutcome = { result: AppendResult } | { error: unknown };

/**
 * The SQL store's group commit: concurrent appends to different streams share one statement and commit, each with its
 * own outcome. One statement of each kind is in flight at a time, so the appends that arrive meanwhile gather for the
 * whole of its round trip, as one hot wallet's commands do behind its own append (decision 0173).
 */
export class SqlGroupCommit {
  private readonly atRevision = new StatementBatcher<AppendAtRevision, AppendOutcome>(
    (appends) => this.appendGroup(appends),
    { concurrency: 1, maxBatch: 128 },
  );
  private readonly atRevisionGathered = new StatementBatcher<AppendAtRevision, AppendOutcome>(
    (appends) => this.appendGroup(appends),
    { concurrency: 1, maxBatch: 128, gatherTurn: true },
  );

  constructor(
    private readonly db: SqlDatabase,
    private readonly listener: StoredRowsListener | null = null,
  ) {}

  async append(append: AppendAtRevision, gatherTurn: boolean): Promise<AppendResult> {
    const outcome = await (gatherTurn ? this.atRevisionGathered : this.atRevision).submit(append);
    if ('error' in outcome) throw outcome.error;
    return outcome.result;
  }

  /** Appends to several streams in one statement; if it fails as a whole each append runs alone, as does a stream named twice. */
  private async appendGroup(appends: readonly AppendAtRevision[]): Promise<AppendOutcome[]> {
    const alone = (append: AppendAtRevision): Promise<AppendOutcome> =>
      this.appendToStreams([append]).then(
        ([outcome]) => outcome,
        (error: unknown) => ({ error }),
      );
    if (appends.length === 1) return [await alone(appends[0])];
    const seen = new Set<string>();
    const grouped: number[] = [];
    const later: number[] = [];
    appends.forEach((append, index) => {
      (seen.has(append.streamId) ? later : grouped).push(index);
      seen.add(append.streamId);
    });
    const outcomes: AppendOutcome[] = new Array<AppendOutcome>(appends.length);
    try {
      const results = await this.appendToStreams(grouped.map((index) => appends[index]));
      grouped.forEach((index, position) => (outcomes[index] = results[position]));
    } catch (error) {
      const state = sqlStateOf(error);
      if (state !== SQLSTATE.uniqueViolation && state !== SQLSTATE.deadlockDetected) throw error;
      for (const index of grouped) outcomes[index] = await alone(appends[index]);
    }
    for (const index of later) outcomes[index] = await alone(appends[index]);
    return outcomes;
  }

  /**
   * A stream moves only from its expected revision: its event there must exist, and the primary key (stream, revision)
   * refuses a second event at any revision, so a stale writer fails the whole statement and each append then runs alone.
   * Events go in stream order, so two groups take their index locks alike. A bound key fails it all.
   */
  private async appendToStreams(appends: readonly AppendAtRevision[]): Promise<AppendOutcome[]> {
    const inStreamOrder = [...appends].sort((a, b) => (a.streamId < b.streamId ? -1 : 1));
    let ord = 0;
    const rowsOf = (parent: string, streamId: string, events: readonly NewEvent<DomainEvent>[], expected: number) =>
      events.map((event, index) => ({
        ord: ord++,
        parent_id: parent,
        event_id: event.eventId,
        stream_id: streamId,
        stream_revision: expected + 1 + index,
        event_type: event.type,
        schema_version: event.schemaVersion,
        data: event.data,
        metadata: event.metadata,
      }));
    const events = inStreamOrder.flatMap((append) => [
      ...rowsOf(append.streamId, append.streamId, append.events, append.expected),
      ...(append.opened ?? []).flatMap((stream) => rowsOf(append.streamId, stream.streamId, stream.events, NO_STREAM)),
    ]);
    const parentOf = new Map(
      appends.flatMap((append) => (append.opened ?? []).map((stream) => [stream.streamId, append.streamId] as const)),
    );
    const payload = JSON.stringify(events);
    const rows = await this.db.query<ReturnedRow>(
      `WITH placed AS (
         SELECT w.stream_id FROM unnest($1::text[], $4::bigint[]) AS w(stream_id, expected) WHERE w.expected < 0
         UNION ALL
         SELECT w.stream_id FROM unnest($1::text[], $4::bigint[]) AS w(stream_id, expected)
          CROSS JOIN LATERAL (
            SELECT 1 FROM es_events e WHERE e.stream_id = w.stream_id AND e.stream_revision = w.expected LIMIT 1
          ) AS found
          WHERE w.expected >= 0
       ), bound AS (
         INSERT INTO idempotency_keys (partner_id, environment, idempotency_key, request_hash, order_id, state, response_status,
                                       locked_until, created_at, expires_at)
         SELECT k.partner_id, k.environment, k.idempotency_key, k.request_hash, k.order_id, 'completed', 200,
                k.created_at, k.created_at, k.expires_at
           FROM jsonb_to_recordset($3::jsonb)
             AS k(stream_id text, partner_id text, environment text, idempotency_key text, request_hash text, order_id text,
                  created_at timestamptz, expires_at timestamptz)
          WHERE k.stream_id IN (SELECT stream_id FROM placed)
       )
       INSERT INTO es_events (event_id, stream_id, stream_revision, event_type, schema_version, data, metadata)
       SELECT v.event_id, v.stream_id, v.stream_revision, v.event_type, v.schema_version, v.data, v.metadata
         FROM jsonb_to_recordset($2::jsonb)
           AS v(ord integer, parent_id text, event_id uuid, stream_id text, stream_revision bigint, event_type text, schema_version integer, data jsonb, metadata jsonb)
        WHERE v.parent_id IN (SELECT stream_id FROM placed)
        ORDER BY v.ord
       RETURNING stream_id, stream_revision::text AS stream_revision, event_id::text AS event_id, global_position::text AS global_position,
                 transaction_id::text AS transaction_id, recorded_at`,
      [
        inStreamOrder.map((append) => append.streamId),
        payload,
        JSON.stringify(appends.flatMap(keyRows)),
        inStreamOrder.map((append) => append.expected),
      ],
    );
    if (this.listener?.listening) {
      const stored = storedRows(rows, events);
      if (stored) this.listener.stored(stored);
    }
    // Each append's position is its last event's, the events of the streams it opened included.
    const positions = new Map<string, GlobalPosition>();
    for (const row of rows) {
      const position = positionOf(row);
      const appendedTo = parentOf.get(row.stream_id) ?? row.stream_id;
      const known = positions.get(appendedTo);
      if (!known || known.prepare < position.prepare) positions.set(appendedTo, position);
    }
    const unmoved = appends.filter((append) => !positions.has(append.streamId)).map((append) => append.streamId);
    const revisions = unmoved.length ? await lastRevisions(this.db, unmoved) : new Map<string, number>();
    return appends.map((append) => {
      const position = positions.get(append.streamId);
      if (!position)
        return {
          error: new WrongExpectedRevisionError(
            append.streamId,
            expectedOf(append.expected),
            revisions.get(append.streamId) ?? 'no_stream',
          ),
        };
      return { result: { nextRevision: append.expected + append.events.length, position, deduplicated: false } };
    });
  }
}

function keyRows(append: AppendAtRevision): object[] {
  return append.keys.map((binding) => ({
    stream_id: append.streamId,
    partner_id: binding.partnerId,
    environment: binding.environment,
    idempotency_key: binding.key,
    request_hash: binding.requestHash,
    order_id: binding.orderId,
    created_at: binding.createdAt,
    expires_at: binding.expiresAt,
  }));
}

/** The stored rows with the data as the log holds it: the events sent, as JSON gives them back (see asStoredJson). */
function storedRows(returned: readonly ReturnedRow[], events: readonly SentRow[]): EventRow[] | null {
  const sent = new Map<string, SentRow>();
  for (const row of events) sent.set(placeOf(row.stream_id, String(row.stream_revision)), row);
  const stored: EventRow[] = [];
  for (const row of returned) {
    const event = sent.get(placeOf(row.stream_id, row.stream_revision));
    // Not expected; the events are then read back as any others are.
    if (!event) return null;
    stored.push({
      global_position: row.global_position,
      transaction_id: row.transaction_id,
      event_id: row.event_id,
      stream_id: row.stream_id,
      stream_revision: row.stream_revision,
      event_type: event.event_type,
      schema_version: event.schema_version,
      data: asStoredJson(event.data),
      metadata: asStoredJson(event.metadata),
      recorded_at: row.recorded_at,
    });
  }
  return stored;
}

interface SentRow {
  stream_id: string;
  stream_revision: number;
  event_type: string;
  schema_version: number;
  data: Readonly<Record<string, unknown>>;
  metadata: EventMetadata;
}

const placeOf = (streamId: string, revision: string): string => `${streamId}\u0000${revision}`;
