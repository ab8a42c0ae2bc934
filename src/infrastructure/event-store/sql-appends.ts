import {
  AppendResult,
  DomainEvent,
  DuplicateEventIdError,
  ExpectedRevision,
  NewEvent,
  WrongExpectedRevisionError,
} from '../../application/ports/event-store.port';
import {
  IdempotencyKeyTakenError,
  KeyBinding,
  OpenedStream,
  keyBindingId,
} from '../../application/ports/key-binding-append.port';
import { SqlDatabase, SqlExecutor, SQLSTATE, constraintOf, sqlStateOf } from '../sql/sql-database';
import { positionOf } from './sql-event-row';
import { NO_STREAM, SqlGroupCommit } from './sql-group-commit';
import { lastRevisions } from './sql-stream-revisions';
import { EVENT_IDS_INDEXED } from './sql-event-store.schema';
import { isOrderDebit, storedDebitsOf } from './sql-order-debits';
import { isTransactionStream } from '../../domain/transaction/transaction.events';

/** Tries of an `any` or `stream_exists` append that lose the next revision to another writer. */
const MAX_ATTEMPTS_AFTER_LAST = 10;

/** The SQL store's appends to one stream: known revisions through the group commit, `any` and `stream_exists` after the last event read. */
export class SqlAppends {
  constructor(
    private readonly db: SqlDatabase,
    private readonly group: SqlGroupCommit,
    private readonly onStored: () => void,
  ) {}

  /** A repeated append is a no-op, found only after it fails, so a first append costs no extra read. */
  async append(
    streamId: string,
    events: readonly NewEvent<DomainEvent>[],
    expected: ExpectedRevision,
    keys: readonly KeyBinding[],
    gatherTurn: boolean,
    opened: readonly OpenedStream<DomainEvent>[] = [],
  ): Promise<AppendResult> {
    if (events.length === 0) throw new Error('append needs at least one event');
    // Refused here, not by the event-id index, which leaves orders' own streams out (decision 0165).
    const ids = events.map((event) => event.eventId);
    if (new Set(ids).size !== ids.length)
      throw new DuplicateEventIdError(ids.filter((id, index) => ids.indexOf(id) !== index));
    const atKnownPlace = typeof expected === 'number' || expected === 'no_stream';
    if ((keys.length > 0 || opened.length > 0) && !atKnownPlace)
      throw new Error(
        'Idempotency-Keys are bound, and streams opened, only by appends at a known revision or to a new stream',
      );
    try {
      const result = atKnownPlace
        ? await this.group.append(
            {
              streamId,
              events,
              expected: expected === 'no_stream' ? NO_STREAM : expected,
              keys,
              opened,
            },
            gatherTurn,
          )
        : await this.appendAfterLast(streamId, events, expected);
      this.onStored();
      return result;
    } catch (error) {
      return this.afterFailedAppend(error, streamId, events, expected, keys);
    }
  }

  /** Why an append failed, as the port's errors; or its result when its events are stored already. */
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
    // A concurrent writer won a race: on the event ids (a repeated append) or on the stream's next revision.
    const repeated = await this.alreadyStored(this.db, streamId, events);
    if (repeated) return repeated;
    if (constraintOf(error) === 'es_events_stream_event_id_unique')
      // Nothing was stored: the batch itself carries one id twice.
      throw new DuplicateEventIdError(events.map((event) => event.eventId));
    if (constraintOf(error) === 'es_events_one_debit_per_order')
      // Nothing was stored: the order has a debit already, under another id or in another stream.
      throw new DuplicateEventIdError(events.filter(isOrderDebit).map((event) => event.eventId));
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

  /**
   * `any` and `stream_exists`: after the stream's last event as read now. A writer that takes that revision first
   * makes the insert fail on the primary key; the append then reads again, a few times at most.
   */
  private async appendAfterLast(
    streamId: string,
    events: readonly NewEvent<DomainEvent>[],
    expected: ExpectedRevision,
  ): Promise<AppendResult> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.insertAfterLast(streamId, events, expected);
      } catch (error) {
        const lostTheRevision =
          sqlStateOf(error) === SQLSTATE.uniqueViolation && constraintOf(error) === 'es_events_pkey';
        if (!lostTheRevision || attempt >= MAX_ATTEMPTS_AFTER_LAST) throw error;
      }
    }
  }

  private async insertAfterLast(
    streamId: string,
    events: readonly NewEvent<DomainEvent>[],
    expected: ExpectedRevision,
  ): Promise<AppendResult> {
    const current = await this.currentRevision(this.db, streamId);
    assertExpected(streamId, expected, current);
    const first = (current ?? -1) + 1;
    const last = first + events.length - 1;
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
    const inserted = await this.db.query<{ global_position: string; transaction_id: string }>(
      `INSERT INTO es_events (event_id, stream_id, stream_revision, event_type, schema_version, data, metadata)
       VALUES ${values.join(', ')}
       RETURNING global_position::text AS global_position, transaction_id::text AS transaction_id`,
      params,
    );
    const lastRow = inserted[inserted.length - 1];
    return {
      nextRevision: last,
      position: positionOf(lastRow),
      deduplicated: false,
    };
  }

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

  private async alreadyStored(
    db: SqlExecutor,
    streamId: string,
    events: readonly NewEvent<DomainEvent>[],
  ): Promise<AppendResult | null> {
    const ids = events.map((event) => event.eventId);
    // Ids are unique per stream (decision 0158): only this stream's events can make the append a repeat. Outside
    // orders' streams the clause names the event-id index's own condition, so that its plan can use the index; an
    // order's stream has no such index and few events (decision 0165); an order's debit is found by its order (0174).
    const rows = await db.query<{ event_id: string; event_type: string }>(
      `SELECT event_id::text AS event_id, event_type FROM es_events
        WHERE stream_id = $1 AND event_id = ANY($2::uuid[])${isTransactionStream(streamId) ? '' : ` AND ${EVENT_IDS_INDEXED}`}`,
      [streamId, ids],
    );
    rows.push(...(await this.storedDebits(db, streamId, events)));
    if (rows.length === 0) return null;
    const typeOf = new Map(events.map((event) => [event.eventId, event.type]));
    // A repeat is the same events again: every id stored in this stream, each with its type. Anything else is a conflict.
    if (rows.length !== new Set(ids).size || rows.some((row) => typeOf.get(row.event_id) !== row.event_type)) {
      throw new DuplicateEventIdError(rows.map((row) => row.event_id));
    }
    const revision = await this.currentRevision(db, streamId);
    return { nextRevision: revision ?? -1, position: null, deduplicated: true };
  }

  /** The append's order debits this stream holds already, found by their orders. */
  private async storedDebits(
    db: SqlExecutor,
    streamId: string,
    events: readonly NewEvent<DomainEvent>[],
  ): Promise<{ event_id: string; event_type: string }[]> {
    const debits = events.filter(isOrderDebit);
    if (debits.length === 0) return [];
    const ids = new Set(debits.map((event) => event.eventId));
    const stored = await storedDebitsOf(
      db,
      debits.map((event) => event.metadata.correlationId),
    );
    return stored
      .filter((row) => row.stream_id === streamId && ids.has(row.event_id))
      .map(({ event_id, event_type }) => ({ event_id, event_type }));
  }

  private async currentRevision(db: SqlExecutor, streamId: string): Promise<number | null> {
    return (await lastRevisions(db, [streamId])).get(streamId) ?? null;
  }
}

function assertExpected(streamId: string, expected: ExpectedRevision, current: number | null): void {
  const ok =
    expected === 'any' ||
    (expected === 'no_stream' && current === null) ||
    (expected === 'stream_exists' && current !== null) ||
    (typeof expected === 'number' && current === expected);
  if (!ok) throw new WrongExpectedRevisionError(streamId, expected, current ?? 'no_stream');
}
