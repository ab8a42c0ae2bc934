import { Readable } from 'node:stream';
import {
  AccessDeniedError,
  AllStreamRecordedEvent,
  AllStreamResolvedEvent,
  AllStreamSubscription,
  AppendResult,
  AppendToStreamOptions,
  BACKWARDS,
  END,
  EventData,
  Filter,
  MaxAppendSizeExceededError,
  NO_STREAM,
  Position,
  ReadAllOptions,
  ReadStreamOptions,
  ResolvedEvent,
  START,
  STREAM_EXISTS,
  StreamDeletedError,
  StreamNotFoundError,
  StreamingRead,
  SubscribeToAllOptions,
  UnavailableError,
  WrongExpectedVersionError,
} from '@eventstore/db-client';
import { v4 as uuid } from 'uuid';
import { EventStoreDbClient } from '../../../../src/infrastructure/event-store/eventstoredb-event-store';

export interface FakeEventStoreDbOptions {
  /** A $statsCollection system event after every n-th append. */
  systemEventEvery?: number;
  latencyMs?: number;
  /** The server's MaxAppendSize, bytes (1 MiB, its default, when not given). */
  maxAppendSizeBytes?: number;
  /** Reads of and subscriptions to $all are denied, as the default ACL does for a user outside $admins. */
  allReadDenied?: boolean;
  /** Stream reads carry 2^64-1 as commit and prepare position, as servers before 22.6 answer. */
  positionlessStreamReads?: boolean;
}

const DEFAULT_MAX_APPEND_SIZE_BYTES = 1_048_576;
/** A filtered subscription sends a checkpoint every checkpointInterval × this many events considered (the server's default search window). */
const CHECKPOINT_WINDOW = 32;
const POSITION_STEP = 100n;
const UNKNOWN_POSITION = 2n ** 64n - 1n;

/**
 * An in-memory stand-in for EventStoreDBClient, following the server's documented behaviour:
 * - expected revision: > current fails, == current writes (even ids already stored), < current is an idempotent
 *   success only if the events after it carry exactly these ids, else WrongExpectedVersion; `any` and
 *   `stream_exists` dedupe a batch found whole in the stream; event ids compare as UUIDs and read back lowercase;
 * - a batch larger than MaxAppendSize (1 MiB by default, counted as the server does) fails with
 *   MaxAppendSizeExceededError and writes nothing;
 * - each event's position is its own log position, as commit and prepare (22.6+); the append reports its first
 *   event's, which differs from the last event's whenever a batch has two or more;
 * - readAll forwards from a position includes it, backwards excludes it; reading a missing stream fails with
 *   StreamNotFoundError, reading or appending to a tombstoned one with StreamDeletedError;
 * - a subscription to $all delivers the history after its start position, in order, then live events; a filtered
 *   one reports checkpoints; reads of and subscriptions to $all fail with AccessDeniedError when `allReadDenied`;
 * - $all also holds system events and, when asked, events of another application.
 * It is a test double: it proves the adapter's logic against these rules, not the rules themselves.
 */
export class FakeEventStoreDbClient implements EventStoreDbClient {
  readonly log: AllStreamRecordedEvent[] = [];
  private readonly streams = new Map<string, AllStreamRecordedEvent[]>();
  private readonly tombstoned = new Set<string>();
  private readonly subscriptions = new Set<FakeSubscription>();
  private nextPosition = 1_000n;
  private appends = 0;
  appendCalls = 0;
  disposed = false;
  /** Reads of and subscriptions to $all are denied (the user is not in $admins and has no read on $$$all). */
  allReadDenied: boolean;

  constructor(private readonly options: FakeEventStoreDbOptions = {}) {
    this.allReadDenied = options.allReadDenied ?? false;
  }

  async appendToStream(streamName: string, events: EventData[], options: AppendToStreamOptions): Promise<AppendResult> {
    this.appendCalls++;
    await this.latency();
    const maxAppendSize = this.options.maxAppendSizeBytes ?? DEFAULT_MAX_APPEND_SIZE_BYTES;
    if (sizeOnDisk(events) > maxAppendSize) throw MaxAppendSizeExceededError.fromMaxAppendSize(maxAppendSize);
    if (this.tombstoned.has(streamName)) throw StreamDeletedError.fromStreamName(streamName);
    const stream = this.streams.get(streamName) ?? [];
    const current = stream.length - 1;
    const expected = options.expectedRevision ?? 'any';
    const wrong = (): WrongExpectedVersionError =>
      new WrongExpectedVersionError(undefined, {
        streamName,
        expected,
        current: current < 0 ? NO_STREAM : BigInt(current),
      });
    const newIds = events.map((event) => event.id.toLowerCase());
    const idsAt = (from: number): string[] => stream.slice(from, from + events.length).map((event) => event.id);
    const sameIds = (from: number): boolean =>
      idsAt(from).length === events.length && idsAt(from).every((id, i) => id === newIds[i]);
    if (expected === 'any' || expected === STREAM_EXISTS) {
      if (expected === STREAM_EXISTS && current < 0) throw wrong();
      const at = stream.findIndex((event) => event.id === newIds[0]);
      if (at >= 0) {
        if (sameIds(at))
          return { success: true, nextExpectedRevision: BigInt(at + events.length - 1), position: undefined };
        throw wrong();
      }
    } else {
      const revision = expected === NO_STREAM ? -1 : Number(expected);
      if (revision > current) throw wrong();
      if (revision < current) {
        if (sameIds(revision + 1))
          return { success: true, nextExpectedRevision: BigInt(revision + events.length), position: undefined };
        throw wrong();
      }
    }
    const first = this.nextPosition;
    for (const event of events) this.record(streamName, event);
    this.appends++;
    if (this.options.systemEventEvery && this.appends % this.options.systemEventEvery === 0) this.appendSystemEvent();
    return {
      success: true,
      nextExpectedRevision: BigInt(current + events.length),
      position: { commit: first, prepare: first },
    };
  }

  /** Hard-deletes a stream, as `tombstoneStream` does: it can never be read or written again. */
  tombstone(streamName: string): void {
    this.tombstoned.add(streamName);
    this.record(streamName, {
      id: uuid(),
      contentType: 'application/json',
      type: '$streamDeleted',
      data: {},
      metadata: undefined,
    });
  }

  /** A system event, as the server writes them ($statsCollection every 30 s by default). */
  appendSystemEvent(): void {
    this.record('$stats-127.0.0.1:2113', {
      id: uuid(),
      contentType: 'application/json',
      type: '$statsCollection',
      data: { 'proc-cpu': 1 },
      metadata: undefined,
    });
  }

  /** An event of another application sharing the server: JSON without our metadata. */
  appendForeignEvent(type = 'ForeignThing'): void {
    this.record(`foreign-${uuid()}`, {
      id: uuid(),
      contentType: 'application/json',
      type,
      data: { any: 'thing' },
      metadata: { source: 'elsewhere' },
    });
  }

  /** Writes one event at the next log position, which is both its commit and its prepare position. */
  private record(streamName: string, event: EventData): void {
    const position: Position = { commit: this.nextPosition, prepare: this.nextPosition };
    this.nextPosition += POSITION_STEP;
    const stream = this.streams.get(streamName) ?? [];
    const isJson = event.contentType === 'application/json';
    const recorded = {
      streamId: streamName,
      id: event.id.toLowerCase(),
      isJson,
      revision: BigInt(stream.length),
      type: event.type,
      created: new Date(),
      data: isJson ? JSON.parse(JSON.stringify(event.data)) : event.data,
      metadata: event.metadata === undefined ? undefined : JSON.parse(JSON.stringify(event.metadata)),
      position,
    };
    stream.push(recorded);
    this.streams.set(streamName, stream);
    this.log.push(recorded);
    for (const subscription of this.subscriptions) if (subscription.live) subscription.offer(recorded);
  }

  readStream(streamName: string, options: ReadStreamOptions): StreamingRead<ResolvedEvent> {
    if (this.tombstoned.has(streamName))
      return readable<ResolvedEvent>([], StreamDeletedError.fromStreamName(streamName), this.options.latencyMs);
    const stream = this.streams.get(streamName);
    if (!stream)
      return readable<ResolvedEvent>([], new StreamNotFoundError(undefined, streamName), this.options.latencyMs);
    const backwards = options.direction === BACKWARDS;
    const from = options.fromRevision ?? (backwards ? END : START);
    const count = Number(options.maxCount ?? Number.MAX_SAFE_INTEGER);
    let selected: AllStreamRecordedEvent[];
    if (backwards) {
      const top = from === END ? stream.length - 1 : from === START ? 0 : Number(from);
      selected = stream.slice(0, top + 1).reverse();
    } else {
      const start = from === START ? 0 : from === END ? stream.length : Number(from);
      selected = stream.slice(start);
    }
    const events = selected
      .slice(0, count)
      .map((event) => (this.options.positionlessStreamReads ? withoutPosition(event) : event));
    return readable(
      events.map((event) => ({ event, commitPosition: event.position.commit })),
      null,
      this.options.latencyMs,
    );
  }

  readAll(options: ReadAllOptions): StreamingRead<AllStreamResolvedEvent> {
    if (this.allReadDenied) return readable<AllStreamResolvedEvent>([], accessDenied(), this.options.latencyMs);
    const from = options.fromPosition ?? START;
    const count = Number(options.maxCount ?? Number.MAX_SAFE_INTEGER);
    let selected: AllStreamRecordedEvent[];
    if (options.direction === BACKWARDS) {
      selected = (
        from === END
          ? this.log
          : from === START
            ? []
            : this.log.filter((event) => comparePositions(event.position, from) < 0)
      )
        .slice()
        .reverse();
    } else {
      selected =
        from === START
          ? this.log
          : from === END
            ? []
            : this.log.filter((event) => comparePositions(event.position, from) >= 0);
    }
    return readable(
      selected.slice(0, count).map((event) => ({ event, commitPosition: event.position.commit })),
      null,
      this.options.latencyMs,
    );
  }

  /**
   * Confirms on a later turn, then delivers the history after the start position and goes live in one step, so
   * an append made meanwhile comes after the history, as the server delivers it. `end` is the end of the log when
   * the call is made.
   */
  subscribeToAll(options: SubscribeToAllOptions): AllStreamSubscription {
    const subscription = new FakeSubscription(options.filter, () => this.subscriptions.delete(subscription));
    const from = options.fromPosition ?? START;
    const endOfLog = this.log.length;
    this.subscriptions.add(subscription);
    setImmediate(() => {
      if (subscription.stopped) return;
      if (this.allReadDenied) {
        subscription.fail(accessDenied());
        return;
      }
      subscription.emit('confirmation');
      const history =
        from === END
          ? this.log.slice(endOfLog)
          : from === START
            ? this.log
            : this.log.filter((event) => comparePositions(event.position, from) > 0);
      for (const event of history) subscription.offer(event);
      subscription.live = true;
    });
    return subscription;
  }

  /** Every open subscription fails as on a lost connection. */
  dropSubscriptions(): void {
    for (const subscription of [...this.subscriptions]) subscription.fail(new UnavailableError());
  }

  get openSubscriptions(): number {
    return this.subscriptions.size;
  }

  streamIds(): string[] {
    return [...this.streams.keys()];
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    for (const subscription of [...this.subscriptions]) subscription.destroy();
  }

  private async latency(): Promise<void> {
    await new Promise((resolve) =>
      this.options.latencyMs ? setTimeout(resolve, this.options.latencyMs) : setImmediate(resolve),
    );
  }
}

class FakeSubscription extends Readable {
  id = uuid();
  /** Receives appends as they happen (once the history has been delivered). */
  live = false;
  stopped = false;
  private readonly pattern: RegExp | null;
  private considered = 0;

  constructor(
    private readonly subscriptionFilter: Filter | undefined,
    private readonly onClose: () => void,
  ) {
    super({ objectMode: true, read: () => undefined });
    this.pattern = subscriptionFilter && 'regex' in subscriptionFilter ? new RegExp(subscriptionFilter.regex) : null;
    this.on('close', () => this.stop());
  }

  offer(event: AllStreamRecordedEvent): void {
    if (this.stopped || this.destroyed) return;
    if (this.passes(event))
      this.push({ event, commitPosition: event.position.commit } satisfies AllStreamResolvedEvent);
    this.considerForCheckpoint(event.position);
  }

  fail(error: Error): void {
    this.stop();
    this.destroy(error);
  }

  async unsubscribe(): Promise<void> {
    this.stop();
    this.push(null);
  }

  private passes(event: AllStreamRecordedEvent): boolean {
    if (!this.subscriptionFilter || !this.pattern) return true;
    return this.pattern.test(this.subscriptionFilter.filterOn === 'eventType' ? event.type : event.streamId);
  }

  private considerForCheckpoint(position: Position): void {
    if (!this.subscriptionFilter?.checkpointReached) return;
    this.considered++;
    if (this.considered < this.subscriptionFilter.checkpointInterval * CHECKPOINT_WINDOW) return;
    this.considered = 0;
    void this.subscriptionFilter.checkpointReached(this, position);
  }

  private stop(): void {
    this.stopped = true;
    this.onClose();
  }
}

const comparePositions = (a: Position, b: Position): number =>
  a.commit === b.commit ? Number(a.prepare - b.prepare) : Number(a.commit - b.commit);

const accessDenied = (): AccessDeniedError => new AccessDeniedError(undefined, '7 PERMISSION_DENIED: Access Denied');

/** The server's count against MaxAppendSize: data and metadata as the client sends them, and two bytes per character of the type. */
function sizeOnDisk(events: readonly EventData[]): number {
  const bytes = (content: unknown): number =>
    content instanceof Uint8Array ? content.length : Buffer.from(JSON.stringify(content) ?? '', 'utf8').length;
  return events.reduce(
    (total, event) => total + bytes(event.data) + (event.metadata ? bytes(event.metadata) : 0) + 2 * event.type.length,
    0,
  );
}

const withoutPosition = (event: AllStreamRecordedEvent): AllStreamRecordedEvent => ({
  ...event,
  position: { commit: UNKNOWN_POSITION, prepare: UNKNOWN_POSITION },
});

function readable<E>(items: E[], error: Error | null, latencyMs = 0): StreamingRead<E> {
  const stream = new Readable({ objectMode: true, read: () => undefined });
  setTimeout(() => {
    if (error) {
      stream.destroy(error);
      return;
    }
    for (const item of items) stream.push(item);
    stream.push(null);
  }, latencyMs);
  return Object.assign(stream, { cancel: async () => void stream.destroy() });
}
