import { EventEmitter } from 'node:events';
import { LogEvent } from '../../domain/log-events';
import { EventStream } from '../../domain/shared/event-types';
import { EventDecoder } from '../../application/ports/event-decoder.port';
import {
  AppendOptions,
  AppendResult,
  DomainEvent,
  DuplicateEventIdError,
  IdempotencyKeyTakenError,
  KeyBinding,
  keyBindingId,
  EventStore,
  ExpectedRevision,
  GlobalPosition,
  HistoricalEvent,
  NewEvent,
  ReadAllOptions,
  RecordedEvent,
  StreamAppend,
  StreamAppendOutcome,
  StreamRef,
  UntypedEvent,
  WrongExpectedRevisionError,
  inStream,
  isStreamAppendRefusal,
  streamIdOf,
} from '../../application/ports/event-store.port';
import { READABLE_HORIZON } from './readable-horizon';
import { importHistoricalEvents } from './sql-event-import';
import { SqlDatabase, SqlExecutor, SQLSTATE, constraintOf, sqlStateOf } from '../sql/sql-database';
import { StatementBatcher } from '../sql/statement-batcher';
import { EVENT_COLUMNS, EventRow } from './sql-event-row';
import { appendSpan } from '../tracing/event-append-span';
import { traced } from '../tracing/tracing';

/** An append at a known place: after revision `expected`, or as a new stream when it is NO_STREAM (-1). */
interface AppendAtRevision {
  streamId: string;
  events: readonly NewEvent<DomainEvent>[];
  expected: number;
  keys: readonly KeyBinding[];
}

const NO_STREAM = -1;
const expectedOf = (revision: number): ExpectedRevision => (revision === NO_STREAM ? 'no_stream' : revision);

type AppendOutcome = { result: AppendResult } | { error: unknown };

/** The event store on PostgreSQL (the embedded server or an external one), holding the events `decoder` reads. */
export class SqlEventStore<Event extends DomainEvent = LogEvent> implements EventStore<Event> {
  /** Idempotency keys live in the same database: `idempotency_keys`, written in the append's own statement. */
  readonly bindsIdempotencyKeys = true;
  private readonly appended = new EventEmitter();
  /** Appends at known revisions (or to new streams) of different streams, made at the same time, share one statement and one commit. */
  private readonly atRevision = new StatementBatcher<AppendAtRevision, AppendOutcome>(
    (appends) => this.appendGroup(appends),
    {
      concurrency: 2,
      maxBatch: 128,
    },
  );
  /** The same for background appends that may wait for the end of the turn (AppendOptions.gatherTurn). */
  private readonly atRevisionGathered = new StatementBatcher<AppendAtRevision, AppendOutcome>(
    (appends) => this.appendGroup(appends),
    { concurrency: 2, maxBatch: 128, gatherTurn: true },
  );

  constructor(
    private readonly db: SqlDatabase,
    private readonly decoder: EventDecoder<Event>,
  ) {
    this.appended.setMaxListeners(0);
  }

  /**
   * A repeated append (every event id stored already in this stream) is a no-op. It is not
   * looked for up front: such an append fails on the expected revision or on the event-id
   * constraint, and only then are the ids looked up, so a first append costs no extra read.
   */
  append<Appended extends Event>(
    streamId: string,
    events: readonly NewEvent<Appended>[],
    expected: ExpectedRevision,
    options: AppendOptions = {},
  ): Promise<AppendResult> {
    return traced(
      'event append',
      () => this.appendToStream(streamId, events, expected, options),
      () => appendSpan([{ streamId, events }]),
    );
  }

  private async appendToStream(
    streamId: string,
    events: readonly NewEvent<Event>[],
    expected: ExpectedRevision,
    options: AppendOptions,
  ): Promise<AppendResult> {
    if (events.length === 0) throw new Error('append needs at least one event');
    const keys = options.idempotencyKeys ?? [];
    const atKnownPlace = typeof expected === 'number' || expected === 'no_stream';
    if (keys.length > 0 && !atKnownPlace)
      throw new Error('Idempotency-Keys are bound only by appends at a known revision or to a new stream');
    try {
      const result = atKnownPlace
        ? await this.appendInGroup(
            {
              streamId,
              events,
              expected: expected === 'no_stream' ? NO_STREAM : expected,
              keys,
            },
            options.gatherTurn === true,
          )
        : await this.db.transaction((tx) => this.appendInTransaction(tx, streamId, events, expected));
      this.appended.emit('appended');
      return result;
    } catch (error) {
      return this.afterFailedAppend(error, streamId, events, expected, keys);
    }
  }

  /** One statement for all the streams (see appendGroup); a stream refused there is explained on its own. */
  appendMany(appends: readonly StreamAppend<Event>[]): Promise<StreamAppendOutcome[]> {
    if (appends.length === 0) return Promise.resolve([]);
    return traced(
      'event append',
      () => this.appendToStreamsChecked(appends),
      () => appendSpan(appends),
    );
  }

  private async appendToStreamsChecked(appends: readonly StreamAppend<Event>[]): Promise<StreamAppendOutcome[]> {
    for (const append of appends) if (append.events.length === 0) throw new Error('append needs at least one event');
    const placed = await this.appendGroup(
      appends.map((append) => ({
        streamId: append.streamId,
        events: append.events,
        expected: append.expected === 'no_stream' ? NO_STREAM : append.expected,
        keys: append.idempotencyKeys ?? [],
      })),
    );
    const outcomes = await Promise.all(
      placed.map(async (outcome, index): Promise<StreamAppendOutcome> => {
        if ('result' in outcome) return { ok: true, result: outcome.result };
        const append = appends[index];
        try {
          const result = await this.afterFailedAppend(
            outcome.error,
            append.streamId,
            append.events,
            append.expected,
            append.idempotencyKeys ?? [],
          );
          return { ok: true, result };
        } catch (error) {
          if (isStreamAppendRefusal(error)) return { ok: false, error };
          throw error;
        }
      }),
    );
    if (outcomes.some((outcome) => outcome.ok)) this.appended.emit('appended');
    return outcomes;
  }

  /**
   * Why an append failed, as the port's errors; or its result, when the events it carried are stored
   * already (a repeated append is a no-op).
   */
  private async afterFailedAppend(
    error: unknown,
    streamId: string,
    events: readonly NewEvent<DomainEvent>[],
    expected: ExpectedRevision,
    keys: readonly KeyBinding[],
  ): Promise<AppendResult> {
    if (sqlStateOf(error) !== SQLSTATE.uniqueViolation) return this.retryOrRethrow(error, streamId, events);
    if (constraintOf(error) === 'idempotency_keys_pkey')
      throw new IdempotencyKeyTakenError(await this.boundAlready(keys));
    // A concurrent writer won a race: on the event ids (a repeated append) or on the stream.
    if (constraintOf(error) === 'es_events_event_id_unique') {
      const repeated = await this.alreadyStored(this.db, streamId, events);
      if (repeated) return repeated;
      // Nothing was stored: the batch itself carries one id twice.
      throw new DuplicateEventIdError(events.map((event) => event.eventId));
    }
    const actual = await this.currentRevision(this.db, streamId);
    throw new WrongExpectedRevisionError(streamId, expected, actual ?? 'no_stream');
  }

  /** A retry racing its own first attempt sees the revision move; if the first attempt stored these events, it is a no-op. */
  private async retryOrRethrow(
    error: unknown,
    streamId: string,
    events: readonly NewEvent<DomainEvent>[],
  ): Promise<AppendResult> {
    if (error instanceof WrongExpectedRevisionError) {
      const repeated = await this.alreadyStored(this.db, streamId, events);
      if (repeated) return repeated;
    }
    throw error;
  }

  readStream(streamId: string, fromRevision?: number, maxCount?: number): Promise<RecordedEvent<Event>[]>;
  readStream<Held extends Event>(
    stream: EventStream<Held>,
    fromRevision?: number,
    maxCount?: number,
  ): Promise<RecordedEvent<Held>[]>;
  async readStream(stream: StreamRef, fromRevision = 0, maxCount?: number): Promise<RecordedEvent<Event>[]> {
    const streamId = streamIdOf(stream);
    const rows = await this.db.query<EventRow>(
      `SELECT ${EVENT_COLUMNS} FROM es_events WHERE stream_id = $1 AND stream_revision >= $2 ORDER BY es_events.stream_revision
        ${maxCount === undefined ? '' : 'LIMIT $3'}`,
      maxCount === undefined ? [streamId, fromRevision] : [streamId, fromRevision, maxCount],
    );
    return rows.map((row) => this.decoded(row, stream));
  }

  readLastEvent(streamId: string): Promise<RecordedEvent<Event> | null>;
  readLastEvent<Held extends Event>(stream: EventStream<Held>): Promise<RecordedEvent<Held> | null>;
  async readLastEvent(stream: StreamRef): Promise<RecordedEvent<Event> | null> {
    const rows = await this.db.query<EventRow>(
      `SELECT ${EVENT_COLUMNS} FROM es_events WHERE stream_id = $1 ORDER BY es_events.stream_revision DESC LIMIT 1`,
      [streamIdOf(stream)],
    );
    return rows.length ? this.decoded(rows[0], stream) : null;
  }

  async readAll(after: GlobalPosition | null, options: ReadAllOptions): Promise<RecordedEvent<Event>[]> {
    const from = after ?? { commit: 0n, prepare: 0n };
    const params: unknown[] = [from.commit.toString(), from.prepare.toString(), options.maxCount];
    let typeFilter = '';
    if (options.eventTypes) {
      params.push([...options.eventTypes]);
      typeFilter = 'AND event_type = ANY($4::text[])';
    }
    const rows = await this.db.query<EventRow>(
      `SELECT ${EVENT_COLUMNS} FROM es_events
        WHERE (transaction_id, global_position) > ($1::text::xid8, $2::bigint)
          AND transaction_id < ${READABLE_HORIZON}
          ${typeFilter}
        ORDER BY es_events.transaction_id, es_events.global_position
        LIMIT $3`,
      params,
    );
    return rows.map((row) => this.decoded(row));
  }

  async headPosition(): Promise<GlobalPosition | null> {
    const rows = await this.db.query<{ transaction_id: string; global_position: string }>(
      `SELECT transaction_id::text AS transaction_id, global_position::text AS global_position FROM es_events
        WHERE transaction_id < ${READABLE_HORIZON}
        ORDER BY es_events.transaction_id DESC, es_events.global_position DESC LIMIT 1`,
    );
    return rows.length ? { commit: BigInt(rows[0].transaction_id), prepare: BigInt(rows[0].global_position) } : null;
  }

  async countEvents(after: GlobalPosition | null, upTo?: GlobalPosition | null): Promise<number> {
    const from = after ?? { commit: 0n, prepare: 0n };
    const params: unknown[] = [from.commit.toString(), from.prepare.toString()];
    let bound = '';
    if (upTo) {
      params.push(upTo.commit.toString(), upTo.prepare.toString());
      bound = 'AND (transaction_id, global_position) <= ($3::text::xid8, $4::bigint)';
    }
    const rows = await this.db.query<{ count: string }>(
      `SELECT count(*)::text AS count FROM es_events
        WHERE (transaction_id, global_position) > ($1::text::xid8, $2::bigint)
          AND transaction_id < ${READABLE_HORIZON}
          ${bound}`,
      params,
    );
    return Number(rows[0].count);
  }

  async readByCorrelationId(correlationId: string): Promise<RecordedEvent<Event>[]> {
    const rows = await this.db.query<EventRow>(
      `SELECT ${EVENT_COLUMNS} FROM es_events WHERE metadata->>'correlationId' = $1
        ORDER BY es_events.transaction_id, es_events.global_position`,
      [correlationId],
    );
    return rows.map((row) => this.decoded(row));
  }

  async countCommittedNotYetReadable(): Promise<number> {
    const rows = await this.db.query<{ pending: string }>(
      `SELECT count(*)::text AS pending FROM es_events WHERE transaction_id >= ${READABLE_HORIZON}`,
    );
    return Number(rows[0].pending);
  }

  async importEvents(events: readonly HistoricalEvent[]): Promise<void> {
    await importHistoricalEvents(this.db, events);
    this.appended.emit('appended');
  }

  onAppended(listener: () => void): () => void {
    this.appended.on('appended', listener);
    return () => this.appended.off('appended', listener);
  }

  async close(): Promise<void> {
    this.appended.removeAllListeners();
  }

  /** Every event this store reads becomes an event of its log here, and only here. */
  private decoded(row: EventRow, stream: StreamRef = row.stream_id): RecordedEvent<Event> {
    return inStream(stream, this.decoder.decode(recordedOf(row)));
  }

  private async appendInGroup(append: AppendAtRevision, gatherTurn: boolean): Promise<AppendResult> {
    const outcome = await (gatherTurn ? this.atRevisionGathered : this.atRevision).submit(append);
    if ('error' in outcome) throw outcome.error;
    return outcome.result;
  }

  /**
   * Appends to several streams in one statement, each only if its stream is still at the
   * expected revision. If the statement fails as a whole (an event id stored already, a
   * deadlock with another process's group), each append runs alone, so each gets its own
   * outcome; a stream named twice in a group also runs alone, after the group.
   */
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
   * The statement behind `appendGroup`: existing streams are moved only if still at their expected
   * revision, new ones created only if absent, in name order (concurrent groups lock them alike);
   * a stream's events, and the Idempotency-Keys its append binds, are inserted only if its row
   * moved or was created. A key bound already fails the statement as a whole (unique violation).
   */
  private async appendToStreams(appends: readonly AppendAtRevision[]): Promise<AppendOutcome[]> {
    const streams = [...appends]
      .sort((a, b) => (a.streamId < b.streamId ? -1 : 1))
      .map((append) => ({
        stream_id: append.streamId,
        expected: append.expected,
        last: append.expected + append.events.length,
      }));
    let ord = 0;
    const events = appends.flatMap((append) =>
      append.events.map((event, index) => ({
        ord: ord++,
        event_id: event.eventId,
        stream_id: append.streamId,
        stream_revision: append.expected + 1 + index,
        event_type: event.type,
        schema_version: event.schemaVersion,
        data: event.data,
        metadata: event.metadata,
      })),
    );
    const rows = await this.db.query<{ stream_id: string; global_position: string; transaction_id: string }>(
      `WITH wanted AS (
         SELECT * FROM jsonb_to_recordset($1::jsonb) AS w(stream_id text, expected bigint, last bigint)
       ), moved AS (
         UPDATE es_streams SET revision = wanted.last FROM wanted
          WHERE wanted.expected >= 0 AND es_streams.stream_id = wanted.stream_id AND es_streams.revision = wanted.expected
         RETURNING es_streams.stream_id
       ), created AS (
         INSERT INTO es_streams (stream_id, revision)
         SELECT wanted.stream_id, wanted.last FROM wanted WHERE wanted.expected < 0 ORDER BY wanted.stream_id
         ON CONFLICT DO NOTHING
         RETURNING es_streams.stream_id
       ), placed AS (
         SELECT stream_id FROM moved UNION ALL SELECT stream_id FROM created
       ), bound AS (
         INSERT INTO idempotency_keys (partner_id, environment, idempotency_key, request_hash, order_id, state, response_status, response_body,
                                       locked_until, created_at, expires_at)
         SELECT k.partner_id, k.environment, k.idempotency_key, k.request_hash, k.order_id, 'completed', k.status, k.body,
                k.created_at, k.created_at, k.expires_at
           FROM jsonb_to_recordset($3::jsonb)
             AS k(stream_id text, partner_id text, environment text, idempotency_key text, request_hash text, order_id text, status integer, body text,
                  created_at timestamptz, expires_at timestamptz)
          WHERE k.stream_id IN (SELECT stream_id FROM placed)
       )
       INSERT INTO es_events (event_id, stream_id, stream_revision, event_type, schema_version, data, metadata)
       SELECT v.event_id, v.stream_id, v.stream_revision, v.event_type, v.schema_version, v.data, v.metadata
         FROM jsonb_to_recordset($2::jsonb)
           AS v(ord integer, event_id uuid, stream_id text, stream_revision bigint, event_type text, schema_version integer, data jsonb, metadata jsonb)
        WHERE v.stream_id IN (SELECT stream_id FROM placed)
        ORDER BY v.ord
       RETURNING stream_id, global_position::text AS global_position, transaction_id::text AS transaction_id`,
      [JSON.stringify(streams), JSON.stringify(events), JSON.stringify(appends.flatMap(keyRows))],
    );
    const positions = new Map<string, GlobalPosition>();
    for (const row of rows) {
      const position = { commit: BigInt(row.transaction_id), prepare: BigInt(row.global_position) };
      const known = positions.get(row.stream_id);
      if (!known || known.prepare < position.prepare) positions.set(row.stream_id, position);
    }
    const unmoved = appends.filter((append) => !positions.has(append.streamId)).map((append) => append.streamId);
    const revisions = unmoved.length ? await this.currentRevisions(unmoved) : new Map<string, number>();
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

  private async currentRevisions(streamIds: readonly string[]): Promise<Map<string, number>> {
    const rows = await this.db.query<{ stream_id: string; revision: string }>(
      'SELECT stream_id, revision::text AS revision FROM es_streams WHERE stream_id = ANY($1::text[])',
      [[...streamIds]],
    );
    return new Map(rows.map((row) => [row.stream_id, Number(row.revision)]));
  }

  private async appendInTransaction(
    tx: SqlExecutor,
    streamId: string,
    events: readonly NewEvent<Event>[],
    expected: ExpectedRevision,
  ): Promise<AppendResult> {
    const current = await this.currentRevision(tx, streamId, true);
    assertExpected(streamId, expected, current);
    const first = (current ?? -1) + 1;
    const last = first + events.length - 1;
    if (current === null) {
      const created = await tx.query(
        'INSERT INTO es_streams (stream_id, revision) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING stream_id',
        [streamId, last],
      );
      if (created.length === 0) {
        // Another writer created the stream between our read and our insert; its row is committed and locked now.
        if (expected !== 'any')
          throw new WrongExpectedRevisionError(
            streamId,
            expected,
            (await this.currentRevision(tx, streamId)) ?? 'no_stream',
          );
        return this.appendInTransaction(tx, streamId, events, expected);
      }
    } else {
      await tx.query('UPDATE es_streams SET revision = $2 WHERE stream_id = $1', [streamId, last]);
    }
    const params: unknown[] = [];
    const values = events.map((event, index) => {
      params.push(
        event.eventId,
        streamId,
        first + index,
        event.type,
        event.schemaVersion,
        JSON.stringify(event.data),
        JSON.stringify(event.metadata),
      );
      const n = params.length;
      return `($${n - 6}::uuid, $${n - 5}, $${n - 4}, $${n - 3}, $${n - 2}, $${n - 1}::jsonb, $${n}::jsonb)`;
    });
    const inserted = await tx.query<{ global_position: string; transaction_id: string }>(
      `INSERT INTO es_events (event_id, stream_id, stream_revision, event_type, schema_version, data, metadata)
       VALUES ${values.join(', ')}
       RETURNING global_position::text AS global_position, transaction_id::text AS transaction_id`,
      params,
    );
    const lastRow = inserted[inserted.length - 1];
    return {
      nextRevision: last,
      position: { commit: BigInt(lastRow.transaction_id), prepare: BigInt(lastRow.global_position) },
      deduplicated: false,
    };
  }

  /** Which of an append's keys are bound already (all of them, if the conflicting row has gone meanwhile). */
  private async boundAlready(keys: readonly KeyBinding[]): Promise<readonly KeyBinding[]> {
    const rows = await this.db.query<{ partner_id: string; environment: string; idempotency_key: string }>(
      `SELECT k.partner_id, k.environment, k.idempotency_key FROM idempotency_keys k
         JOIN unnest($1::text[], $2::text[], $3::text[]) AS v(partner_id, environment, idempotency_key)
           ON k.partner_id = v.partner_id AND k.environment = v.environment AND k.idempotency_key = v.idempotency_key`,
      [
        keys.map((binding) => binding.partnerId),
        keys.map((binding) => binding.environment),
        keys.map((binding) => binding.key),
      ],
    );
    const bound = new Set(
      rows.map((row) =>
        keyBindingId({ partnerId: row.partner_id, environment: row.environment, key: row.idempotency_key }),
      ),
    );
    const taken = keys.filter((binding) => bound.has(keyBindingId(binding)));
    return taken.length ? taken : keys;
  }

  /** A repeated append of events that are all stored already in this stream is a no-op. */
  private async alreadyStored(
    db: SqlExecutor,
    streamId: string,
    events: readonly NewEvent<DomainEvent>[],
  ): Promise<AppendResult | null> {
    const ids = events.map((event) => event.eventId);
    const rows = await db.query<{ event_id: string; stream_id: string; event_type: string }>(
      'SELECT event_id::text AS event_id, stream_id, event_type FROM es_events WHERE event_id = ANY($1::uuid[])',
      [ids],
    );
    if (rows.length === 0) return null;
    const typeOf = new Map(events.map((event) => [event.eventId, event.type]));
    // A repeat is the same event again: same id, same stream, same type. Anything else is a conflict.
    if (
      rows.length !== new Set(ids).size ||
      rows.some((row) => row.stream_id !== streamId || typeOf.get(row.event_id) !== row.event_type)
    ) {
      throw new DuplicateEventIdError(rows.map((row) => row.event_id));
    }
    const revision = await this.currentRevision(db, streamId);
    return { nextRevision: revision ?? -1, position: null, deduplicated: true };
  }

  private async currentRevision(db: SqlExecutor, streamId: string, lock = false): Promise<number | null> {
    const rows = await db.query<{ revision: string }>(
      `SELECT revision::text AS revision FROM es_streams WHERE stream_id = $1${lock ? ' FOR UPDATE' : ''}`,
      [streamId],
    );
    return rows.length ? Number(rows[0].revision) : null;
  }
}

/** The rows binding an append's Idempotency-Keys, tagged with its stream. */
function keyRows(append: AppendAtRevision): object[] {
  return append.keys.map((binding) => ({
    stream_id: append.streamId,
    partner_id: binding.partnerId,
    environment: binding.environment,
    idempotency_key: binding.key,
    request_hash: binding.requestHash,
    order_id: binding.orderId,
    status: binding.statusCode,
    body: binding.body,
    created_at: binding.createdAt,
    expires_at: binding.expiresAt,
  }));
}

function assertExpected(streamId: string, expected: ExpectedRevision, current: number | null): void {
  const ok =
    expected === 'any' ||
    (expected === 'no_stream' && current === null) ||
    (expected === 'stream_exists' && current !== null) ||
    (typeof expected === 'number' && current === expected);
  if (!ok) throw new WrongExpectedRevisionError(streamId, expected, current ?? 'no_stream');
}

function recordedOf(row: EventRow): RecordedEvent<UntypedEvent> {
  return {
    eventId: row.event_id,
    streamId: row.stream_id,
    revision: Number(row.stream_revision),
    type: row.event_type,
    schemaVersion: row.schema_version,
    data: row.data,
    metadata: row.metadata,
    position: { commit: BigInt(row.transaction_id), prepare: BigInt(row.global_position) },
    recordedAt: new Date(row.recorded_at).toISOString(),
  };
}
