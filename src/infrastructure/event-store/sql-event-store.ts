import { EventEmitter } from 'node:events';
import { LogEvent } from '../../domain/log-events';
import { EventStream } from '../../domain/shared/event-types';
import { EventDecoder } from '../../application/ports/event-decoder.port';
import { EventImport } from '../../application/ports/event-import.port';
import { EventLogDiagnostics } from '../../application/ports/event-log-diagnostics.port';
import {
  AppendOptions,
  AppendResult,
  DomainEvent,
  EventStore,
  ExpectedRevision,
  GlobalPosition,
  HistoricalEvent,
  NewEvent,
  ReadAllOptions,
  RecordedEvent,
  StreamRef,
} from '../../application/ports/event-store.port';
import { EventsByCorrelation } from '../../application/ports/events-by-correlation.port';
import { KeyBinding, KeyBindingAppend, OpenedStream } from '../../application/ports/key-binding-append.port';
import { SqlDatabase } from '../sql/sql-database';
import { appendSpan } from '../tracing/event-append-span';
import { traced } from '../tracing/tracing';
import { SqlAppends } from './sql-appends';
import { SqlEventLogDiagnostics } from './sql-diagnostics';
import { importHistoricalEvents } from './sql-event-import';
import { SqlGroupCommit, StoredRowsListener } from './sql-group-commit';
import { SqlEventReads } from './sql-reads';
import { RecentAppends } from './recent-appends';
import { SqlProjectorReads } from './sql-projector-reads';
import { SharedLogReads } from '../projections/shared-log-reads';
import { EventRow } from './sql-event-row';

/** The event store on PostgreSQL; an append binds idempotency keys in its own statement, as they share the database. */
export class SqlEventStore<Event extends DomainEvent = LogEvent>
  implements EventStore<Event>, KeyBindingAppend<Event>, EventsByCorrelation<Event>, EventLogDiagnostics, EventImport
{
  private readonly appended = new EventEmitter();
  private readonly appends: SqlAppends;
  private readonly reads: SqlEventReads<Event>;
  private readonly diagnostics: SqlEventLogDiagnostics;
  private readonly recent = new RecentAppends<Event>();
  /** The projector groups usually read the same page one after the other (both caught up): it is read once. */
  private readonly projectorPages: SharedLogReads<Event>;

  constructor(
    private readonly db: SqlDatabase,
    decoder: EventDecoder<Event>,
  ) {
    this.appended.setMaxListeners(0);
    this.reads = new SqlEventReads(db, decoder);
    this.projectorPages = new SharedLogReads(new SqlProjectorReads(this.recent, this.reads));
    this.appends = new SqlAppends(db, new SqlGroupCommit(db, this.keptForProjectors()), () =>
      this.appended.emit('appended'),
    );
    this.diagnostics = new SqlEventLogDiagnostics(db);
  }

  append<Appended extends Event>(
    streamId: string,
    events: readonly NewEvent<Appended>[],
    expected: ExpectedRevision,
    options: AppendOptions = {},
  ): Promise<AppendResult> {
    return this.traced(streamId, events, () =>
      this.appends.append(streamId, events, expected, [], options.gatherTurn === true),
    );
  }

  appendBindingKeys<Appended extends Event>(
    streamId: string,
    events: readonly NewEvent<Appended>[],
    expected: number | 'no_stream',
    keys: readonly KeyBinding[],
    opened: readonly OpenedStream<Event>[] = [],
  ): Promise<AppendResult> {
    return traced(
      'event append',
      () => this.appends.append(streamId, events, expected, keys, false, opened),
      () => appendSpan([{ streamId, events }, ...opened]),
    );
  }

  readStream(streamId: string, fromRevision?: number, maxCount?: number): Promise<RecordedEvent<Event>[]>;
  readStream<Held extends Event>(
    stream: EventStream<Held>,
    fromRevision?: number,
    maxCount?: number,
  ): Promise<RecordedEvent<Held>[]>;
  readStream(stream: StreamRef, fromRevision?: number, maxCount?: number): Promise<RecordedEvent<Event>[]> {
    return this.reads.readStream(stream, fromRevision, maxCount);
  }

  readLastEvent(streamId: string): Promise<RecordedEvent<Event> | null>;
  readLastEvent<Held extends Event>(stream: EventStream<Held>): Promise<RecordedEvent<Held> | null>;
  readLastEvent(stream: StreamRef): Promise<RecordedEvent<Event> | null> {
    return this.reads.readLastEvent(stream);
  }

  readAll(after: GlobalPosition | null, options: ReadAllOptions): Promise<RecordedEvent<Event>[]> {
    return this.reads.readAll(after, options);
  }

  /**
   * What a projector of this process reads the log through (SqlProjectorReads, one page shared by the groups);
   * `projector` names its checkpoint, so that kept events are let go once every projector has applied them.
   */
  projectorReads(projector: string): Pick<EventStore<Event>, 'readAll'> {
    return {
      readAll: (after, options) => {
        this.recent.readerAt(projector, after);
        return this.projectorPages.readAll(after, options);
      },
    };
  }

  readByCorrelationId(correlationId: string): Promise<RecordedEvent<Event>[]> {
    return this.reads.readByCorrelationId(correlationId);
  }

  headPosition(): Promise<GlobalPosition | null> {
    return this.diagnostics.headPosition();
  }

  committedHeadPosition(): Promise<GlobalPosition | null> {
    return this.diagnostics.committedHeadPosition();
  }

  countEvents(after: GlobalPosition | null, upTo?: GlobalPosition | null): Promise<number> {
    return this.diagnostics.countEvents(after, upTo);
  }

  countCommittedNotYetReadable(): Promise<number> {
    return this.diagnostics.countCommittedNotYetReadable();
  }

  async importEvents(events: readonly HistoricalEvent[]): Promise<void> {
    await importHistoricalEvents(this.db, events);
    this.appended.emit('appended');
  }

  subscribe(listener: () => void): () => void {
    this.appended.on('appended', listener);
    return () => this.appended.off('appended', listener);
  }

  async close(): Promise<void> {
    this.appended.removeAllListeners();
  }

  private keptForProjectors(): StoredRowsListener {
    const { recent, reads } = this;
    return {
      get listening() {
        return recent.wanted;
      },
      stored(rows: readonly EventRow[]) {
        try {
          recent.remember(reads.decodedRows(rows));
        } catch {
          // An event this release cannot read is refused where a projector reads it back, as before.
        }
      },
    };
  }

  private traced(
    streamId: string,
    events: readonly NewEvent<DomainEvent>[],
    append: () => Promise<AppendResult>,
  ): Promise<AppendResult> {
    return traced('event append', append, () => appendSpan([{ streamId, events }]));
  }
}
