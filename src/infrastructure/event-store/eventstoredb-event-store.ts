import { AllStreamResolvedEvent, BACKWARDS, END, EventStoreDBClient, FORWARDS, START } from '@eventstore/db-client';
import { LogEvent } from '../../domain/log-events';
import { EventStream } from '../../domain/shared/event-types';
import { EventDecoder } from '../../application/ports/event-decoder.port';
import { EventImport } from '../../application/ports/event-import.port';
import { EventLogDiagnostics } from '../../application/ports/event-log-diagnostics.port';
import { EventsByCorrelation } from '../../application/ports/events-by-correlation.port';
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
  UntypedEvent,
  comparePositions,
  inStream,
  streamIdOf,
} from '../../application/ports/event-store.port';
import { EventStoreDbAppendWatcher } from './eventstoredb-append-watcher';
import { EventStoreDbAppends, assertServiceStream } from './eventstoredb-append';
import { DEFAULT_EVENTSTOREDB_OPTIONS, EventStoreDbClient, EventStoreDbOptions } from './eventstoredb-client';
import { correlationStreamName, parseCorrelationIntent, verificationReads } from './eventstoredb-event-ids';
import { HeadMemo, SkipCache, countForward, nextHeadMemo, scanBackward, scanForward } from './eventstoredb-log-scan';
import { withClientSettings } from './eventstoredb-connection-string';
import { EventStoreDbAccessDeniedError } from './eventstoredb-errors';
import {
  fromEsdbRevision,
  isServiceEvent,
  logPosition,
  toEventData,
  toImportedEventData,
  toRecordedEvent,
} from './eventstoredb-mapping';
import { EventStoreDbReads, settleAll } from './eventstoredb-reads';
import { appendSpan } from '../tracing/event-append-span';
import { traced } from '../tracing/tracing';

export { DEFAULT_EVENTSTOREDB_OPTIONS, EventStoreDbClient, EventStoreDbOptions } from './eventstoredb-client';
export { EventStoreDbReadTimeoutError, collect } from './eventstoredb-reads';

const MIN_PAGE = 64;
const MAX_PAGE = 1_000;
const HEAD_PAGE = 64;

/** The event store on EventStoreDB 22.6+ (events only); appends claim their ids (eventstoredb-event-ids.ts), positions are read back. */
export class EventStoreDbEventStore<Event extends DomainEvent = LogEvent>
  implements EventStore<Event>, EventsByCorrelation<Event>, EventLogDiagnostics, EventImport
{
  private readonly reads: EventStoreDbReads;
  private readonly appends: EventStoreDbAppends;
  private readonly watcher: EventStoreDbAppendWatcher;
  private readonly skips = new SkipCache();
  private headMemo: HeadMemo | null = null;
  private closed = false;

  /** Connects with our keep-alive and deadline settings added where the string sets none, and checks the server answers. */
  static connect<Event extends DomainEvent>(
    connectionString: string,
    decoder: EventDecoder<Event>,
    options: Partial<EventStoreDbOptions> = {},
  ): Promise<EventStoreDbEventStore<Event>> {
    return EventStoreDbEventStore.openChecked(
      EventStoreDBClient.connectionString(withClientSettings(connectionString)),
      decoder,
      options,
    );
  }

  static async openChecked<Event extends DomainEvent>(
    client: EventStoreDbClient,
    decoder: EventDecoder<Event>,
    options: Partial<EventStoreDbOptions> = {},
  ): Promise<EventStoreDbEventStore<Event>> {
    const store = new EventStoreDbEventStore(client, decoder, options);
    try {
      await store.headPosition();
    } catch (error) {
      await store.close().catch(() => undefined);
      if (error instanceof EventStoreDbAccessDeniedError) throw error;
      throw new Error(`EventStoreDB did not answer: ${error instanceof Error ? error.message : String(error)}`, {
        cause: error,
      });
    }
    return store;
  }

  constructor(
    private readonly client: EventStoreDbClient,
    private readonly decoder: EventDecoder<Event>,
    options: Partial<EventStoreDbOptions> = {},
  ) {
    const settings = { ...DEFAULT_EVENTSTOREDB_OPTIONS, ...options };
    this.reads = new EventStoreDbReads(client, settings.readIdleTimeoutMs);
    this.watcher = new EventStoreDbAppendWatcher(client, settings);
    this.appends = new EventStoreDbAppends(client, this.reads, settings, () => this.watcher.appendedHere());
  }

  async append<Appended extends Event>(
    streamId: string,
    events: readonly NewEvent<Appended>[],
    expected: ExpectedRevision,
    _options: AppendOptions = {},
  ): Promise<AppendResult> {
    if (events.length === 0) throw new Error('append needs at least one event');
    return traced(
      'event append',
      () =>
        this.appends.append(
          streamId,
          events,
          events.map((event) => toEventData(event)),
          expected,
        ),
      () => appendSpan([{ streamId, events }]),
    );
  }

  /** Each run of one stream's consecutive events is one append, one after another (not atomically), so $all keeps the order given. */
  async importEvents(events: readonly HistoricalEvent[]): Promise<void> {
    for (const run of streamRuns(events, IMPORT_RUN_MAX)) {
      const first = run[0].revision;
      const data = run.map(toImportedEventData);
      await this.appends.append(run[0].streamId, run, data, first === 0 ? 'no_stream' : first - 1);
    }
  }

  readStream(streamId: string, fromRevision?: number, maxCount?: number): Promise<RecordedEvent<Event>[]>;
  readStream<Held extends Event>(
    stream: EventStream<Held>,
    fromRevision?: number,
    maxCount?: number,
  ): Promise<RecordedEvent<Held>[]>;
  async readStream(stream: StreamRef, fromRevision = 0, maxCount?: number): Promise<RecordedEvent<Event>[]> {
    const streamId = streamIdOf(stream);
    if (!Number.isSafeInteger(fromRevision) || fromRevision < 0)
      throw new RangeError(`fromRevision ${fromRevision} is not a revision`);
    if (maxCount !== undefined && (!Number.isSafeInteger(maxCount) || maxCount < 0))
      throw new RangeError('maxCount must be a non-negative integer');
    assertServiceStream(streamId);
    if (maxCount === 0) return [];
    const events = await this.reads.streamRecords(streamId, {
      fromRevision: BigInt(fromRevision),
      direction: FORWARDS,
      maxCount,
    });
    return events.map((event) => this.decoded(toRecordedEvent(event), stream));
  }

  /** Read on the leader, so an append that has returned is seen even when followers lag. */
  readLastEvent(streamId: string): Promise<RecordedEvent<Event> | null>;
  readLastEvent<Held extends Event>(stream: EventStream<Held>): Promise<RecordedEvent<Held> | null>;
  async readLastEvent(stream: StreamRef): Promise<RecordedEvent<Event> | null> {
    const streamId = streamIdOf(stream);
    assertServiceStream(streamId);
    const [last] = await this.reads.streamRecords(
      streamId,
      { fromRevision: END, direction: BACKWARDS, maxCount: 1 },
      true,
    );
    return last ? this.decoded(toRecordedEvent(last), stream) : null;
  }

  async readAll(after: GlobalPosition | null, options: ReadAllOptions): Promise<RecordedEvent<Event>[]> {
    if (!Number.isSafeInteger(options.maxCount) || options.maxCount < 1)
      throw new RangeError('maxCount must be a positive integer');
    const types = options.eventTypes;
    const filterKey = types ? [...types].sort().join('\u0001') : '*';
    const scan = await scanForward(this.reads.allPages(FORWARDS), {
      after: this.skips.resume(after, filterKey),
      maxCount: options.maxCount,
      pageSize: Math.min(MAX_PAGE, Math.max(MIN_PAGE, options.maxCount + 1)),
      positionOf: positionOfResolved,
      select: (resolved) =>
        resolved.event && isServiceEvent(resolved.event) && (!types || types.has(resolved.event.type))
          ? this.decoded(toRecordedEvent(resolved.event))
          : null,
    });
    if (scan.reachedEnd && scan.scannedTo) {
      const last = scan.results[scan.results.length - 1];
      this.skips.remember(last ? last.position : after, scan.scannedTo, filterKey);
    }
    return scan.results;
  }

  async headPosition(): Promise<GlobalPosition | null> {
    const previous = this.headMemo;
    const scan = await scanBackward(this.reads.allPages(BACKWARDS), {
      pageSize: HEAD_PAGE,
      stopAt: previous?.top ?? null,
      positionOf: positionOfResolved,
      select: (resolved) =>
        resolved.event && isServiceEvent(resolved.event) ? logPosition(resolved.event.position) : null,
    });
    const { head, memo } = nextHeadMemo(previous, scan);
    this.headMemo = memo;
    return head;
  }

  /** Pages through $all in (after, upTo]: the cost grows with the range (the client cannot count on the server). */
  async countEvents(after: GlobalPosition | null, upTo?: GlobalPosition | null): Promise<number> {
    if (after && upTo && comparePositions(upTo, after) <= 0) return 0;
    return countForward(
      this.reads.allPages(FORWARDS),
      { after, until: upTo ?? null, pageSize: MAX_PAGE, positionOf: positionOfResolved },
      (resolved) => resolved.event !== undefined && isServiceEvent(resolved.event),
    );
  }

  async readByCorrelationId(correlationId: string): Promise<RecordedEvent<Event>[]> {
    const records = await this.reads.streamRecords(correlationStreamName(correlationId), {
      fromRevision: START,
      direction: FORWARDS,
    });
    // Several intents may name one slot (a failed append's and the one that landed there): keep every id.
    const wanted = new Map<string, Set<string>>();
    for (const intent of records.flatMap((record) => parseCorrelationIntent(record) ?? [])) {
      for (const { revision, eventId } of intent.events) {
        const key = revisionKey(intent.streamId, revision);
        wanted.set(key, (wanted.get(key) ?? new Set()).add(eventId.toLowerCase()));
      }
    }
    const found = new Map<string, RecordedEvent<Event>>();
    const slots = [...wanted.keys()].map((key) => {
      const [streamId, revision] = key.split('\u0000');
      return { streamId, revision: Number(revision) };
    });
    await settleAll(
      verificationReads(slots).map(async ({ streamId, from, count }) => {
        for (const record of await this.reads.streamRecords(streamId, {
          fromRevision: BigInt(from),
          direction: FORWARDS,
          maxCount: count,
        })) {
          if (
            !wanted.get(revisionKey(record.streamId, fromEsdbRevision(record.revision)))?.has(record.id.toLowerCase())
          )
            continue;
          const event = toRecordedEvent(record);
          if (event.metadata.correlationId === correlationId) found.set(event.eventId, this.decoded(event));
        }
      }),
    );
    return [...found.values()].sort((a, b) => comparePositions(a.position, b.position));
  }

  async countCommittedNotYetReadable(): Promise<number> {
    return 0;
  }

  /** $all is totally ordered at commit: the newest committed event is readable. */
  committedHeadPosition(): Promise<GlobalPosition | null> {
    return this.headPosition();
  }

  subscribe(listener: () => void): () => void {
    return this.watcher.subscribe(listener);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.watcher.close();
    await this.client.dispose();
  }

  private decoded(recorded: RecordedEvent<UntypedEvent>, stream: StreamRef = recorded.streamId): RecordedEvent<Event> {
    return inStream(stream, this.decoder.decode(recorded));
  }
}

const IMPORT_RUN_MAX = 100;

function streamRuns(events: readonly HistoricalEvent[], max: number): HistoricalEvent[][] {
  const runs: HistoricalEvent[][] = [];
  for (const event of events) {
    const last = runs[runs.length - 1];
    const previous = last?.[last.length - 1];
    if (
      last &&
      previous &&
      last.length < max &&
      previous.streamId === event.streamId &&
      event.revision === previous.revision + 1
    )
      last.push(event);
    else runs.push([event]);
  }
  return runs;
}

const revisionKey = (streamId: string, revision: number): string => `${streamId}\u0000${revision}`;

const positionOfResolved = (resolved: AllStreamResolvedEvent): GlobalPosition | null =>
  resolved.event ? logPosition(resolved.event.position) : null;
