import { EventDecoder } from '../../application/ports/event-decoder.port';
import {
  DomainEvent,
  GlobalPosition,
  ReadAllOptions,
  RecordedEvent,
  StreamRef,
  inStream,
  streamIdOf,
} from '../../application/ports/event-store.port';
import { transactionStreamId } from '../../domain/transaction/transaction.events';
import { SqlExecutor } from '../sql/sql-database';
import { plannedAtEachCall } from '../sql/prepared-statements';
import { READABLE_HORIZON } from './readable-horizon';
import { EVENT_IDS_INDEXED, ORDER_DEBITS } from './sql-event-store.schema';
import { EVENT_COLUMNS, EventRow, positionOf, recordedOf } from './sql-event-row';

/**
 * Planned at each call: a plan cached while the log was a few rows joins by scanning it, and would keep scanning it
 * as it grows (statement-plans.spec.ts shows the same for rm_orders).
 */
const READ_AT_POSITIONS = plannedAtEachCall(
  `SELECT ${EVENT_COLUMNS}
     FROM unnest($1::text[], $2::bigint[]) AS wanted(commit_position, prepare_position)
     JOIN es_events ON es_events.transaction_id = wanted.commit_position::xid8
                   AND es_events.global_position = wanted.prepare_position
    ORDER BY es_events.transaction_id, es_events.global_position`,
);

/** The next page of the log after $1/$2 (commit, prepare), at most $3 events, none past the readable horizon. */
const pageAfter = (columns: string, typeFilter = ''): string =>
  `SELECT ${columns} FROM es_events
    WHERE (transaction_id, global_position) > ($1::text::xid8, $2::bigint)
      AND transaction_id < ${READABLE_HORIZON}
      ${typeFilter}
    ORDER BY es_events.transaction_id, es_events.global_position
    LIMIT $3`;

const pageParams = (after: GlobalPosition | null, maxCount: number): unknown[] => {
  const from = after ?? { commit: 0n, prepare: 0n };
  return [from.commit.toString(), from.prepare.toString(), maxCount];
};

/** The SQL store's reads; every row read becomes an event of the store's log in one place (`decoded`). */
export class SqlEventReads<Event extends DomainEvent> {
  constructor(
    private readonly db: SqlExecutor,
    private readonly decoder: EventDecoder<Event>,
  ) {}

  async readStream(stream: StreamRef, fromRevision = 0, maxCount?: number): Promise<RecordedEvent<Event>[]> {
    const streamId = streamIdOf(stream);
    const rows = await this.db.query<EventRow>(
      `SELECT ${EVENT_COLUMNS} FROM es_events WHERE stream_id = $1 AND stream_revision >= $2 ORDER BY es_events.stream_revision
        ${maxCount === undefined ? '' : 'LIMIT $3'}`,
      maxCount === undefined ? [streamId, fromRevision] : [streamId, fromRevision, maxCount],
    );
    return rows.map((row) => this.decoded(row, stream));
  }

  async readLastEvent(stream: StreamRef): Promise<RecordedEvent<Event> | null> {
    const rows = await this.db.query<EventRow>(
      `SELECT ${EVENT_COLUMNS} FROM es_events WHERE stream_id = $1 ORDER BY es_events.stream_revision DESC LIMIT 1`,
      [streamIdOf(stream)],
    );
    return rows.length ? this.decoded(rows[0], stream) : null;
  }

  async readAll(after: GlobalPosition | null, options: ReadAllOptions): Promise<RecordedEvent<Event>[]> {
    const params = pageParams(after, options.maxCount);
    let typeFilter = '';
    if (options.eventTypes) {
      params.push([...options.eventTypes]);
      typeFilter = 'AND event_type = ANY($4::text[])';
    }
    const rows = await this.db.query<EventRow>(pageAfter(EVENT_COLUMNS, typeFilter), params);
    return rows.map((row) => this.decoded(row));
  }

  /** The positions `readAll` would return events at, without the events. */
  async readAllPositions(after: GlobalPosition | null, maxCount: number): Promise<GlobalPosition[]> {
    const rows = await this.db.query<Pick<EventRow, 'transaction_id' | 'global_position'>>(
      pageAfter('transaction_id::text AS transaction_id, global_position::text AS global_position'),
      pageParams(after, maxCount),
    );
    return rows.map(positionOf);
  }

  /** The events at these positions, in the log's order. */
  async readAt(positions: readonly GlobalPosition[]): Promise<RecordedEvent<Event>[]> {
    const rows = await this.db.query<EventRow>(READ_AT_POSITIONS, [
      positions.map((position) => position.commit.toString()),
      positions.map((position) => position.prepare.toString()),
    ]);
    return rows.map((row) => this.decoded(row));
  }

  /** Rows an append stored, as the events a read of them would return. */
  decodedRows(rows: readonly EventRow[]): RecordedEvent<Event>[] {
    return rows.map((row) => this.decoded(row));
  }

  /**
   * Each part through its own index: an order's own stream directly (migration 11), its debit by the index that keeps
   * it unique, the other events by the correlation index (decision 0174).
   */
  async readByCorrelationId(correlationId: string): Promise<RecordedEvent<Event>[]> {
    const rows = await this.db.query<EventRow>(
      `SELECT ${EVENT_COLUMNS}, es_events.transaction_id AS in_commit, es_events.global_position AS in_order
         FROM es_events WHERE metadata->>'correlationId' = $1 AND ${EVENT_IDS_INDEXED}
       UNION ALL
       SELECT ${EVENT_COLUMNS}, es_events.transaction_id AS in_commit, es_events.global_position AS in_order
         FROM es_events WHERE metadata->>'correlationId' = $1 AND ${ORDER_DEBITS}
       UNION ALL
       SELECT ${EVENT_COLUMNS}, es_events.transaction_id AS in_commit, es_events.global_position AS in_order
         FROM es_events WHERE stream_id = $2 AND metadata->>'correlationId' = $1
        ORDER BY in_commit, in_order`,
      [correlationId, transactionStreamId(correlationId)],
    );
    return rows.map((row) => this.decoded(row));
  }

  private decoded(row: EventRow, stream: StreamRef = row.stream_id): RecordedEvent<Event> {
    return inStream(stream, this.decoder.decode(recordedOf(row)));
  }
}
