import { Readable } from 'node:stream';
import {
  AllStreamRecordedEvent,
  AllStreamResolvedEvent,
  AllStreamSubscription,
  AppendResult,
  AppendToStreamOptions,
  BACKWARDS,
  END,
  EventData,
  NO_STREAM,
  Position,
  ReadAllOptions,
  ReadStreamOptions,
  ResolvedEvent,
  START,
  STREAM_EXISTS,
  StreamNotFoundError,
  StreamingRead,
  SubscribeToAllOptions,
  UnavailableError,
  WrongExpectedVersionError,
} from '@eventstore/db-client';
import { v4 as uuid } from 'uuid';
import { EventStoreDbClient } from '../../../src/infrastructure/event-store/eventstoredb-event-store';

/**
 * An in-memory stand-in for EventStoreDBClient, following the server's documented behaviour:
 * - expected revision: > current fails, == current writes (even ids already stored), < current is an idempotent
 *   success only if the events after it carry exactly these ids, else WrongExpectedVersion; `any` and
 *   `stream_exists` dedupe a batch found whole in the stream;
 * - an append's events share a commit position and each has its own prepare position; the append reports the
 *   commit's position ({commit, commit}), which differs from the last event's whenever a batch has two or more;
 * - readAll forwards from a position includes it, backwards excludes it; reading a missing stream fails with
 *   StreamNotFoundError; stream reads carry positions (22.6+);
 * - $all also holds system events and, when asked, events of another application.
 * It is a test double: it proves the adapter's logic against these rules, not the rules themselves.
 */
export class FakeEventStoreDbClient implements EventStoreDbClient {
  readonly log: AllStreamRecordedEvent[] = [];
  private readonly streams = new Map<string, AllStreamRecordedEvent[]>();
  private readonly subscriptions = new Set<FakeSubscription>();
  private nextPosition = 1_000n;
  private appends = 0;
  appendCalls = 0;
  disposed = false;

  constructor(private readonly options: { systemEventEvery?: number; latencyMs?: number } = {}) {}

  async appendToStream(streamName: string, events: EventData[], options: AppendToStreamOptions): Promise<AppendResult> {
    this.appendCalls++;
    await this.latency();
    const stream = this.streams.get(streamName) ?? [];
    const current = stream.length - 1;
    const expected = options.expectedRevision ?? 'any';
    const wrong = (): WrongExpectedVersionError =>
      new WrongExpectedVersionError(undefined, { streamName, expected, current: current < 0 ? NO_STREAM : BigInt(current) });
    const idsAt = (from: number): string[] => stream.slice(from, from + events.length).map((event) => event.id);
    const sameIds = (from: number): boolean => idsAt(from).length === events.length && idsAt(from).every((id, i) => id === events[i].id);
    if (expected === 'any' || expected === STREAM_EXISTS) {
      if (expected === STREAM_EXISTS && current < 0) throw wrong();
      const at = stream.findIndex((event) => event.id === events[0].id);
      if (at >= 0) {
        if (sameIds(at)) return { success: true, nextExpectedRevision: BigInt(at + events.length - 1), position: undefined };
        throw wrong();
      }
    } else {
      const revision = expected === NO_STREAM ? -1 : Number(expected);
      if (revision > current) throw wrong();
      if (revision < current) {
        if (sameIds(revision + 1)) return { success: true, nextExpectedRevision: BigInt(revision + events.length), position: undefined };
        throw wrong();
      }
    }
    const commit = this.nextPosition;
    events.forEach((event, index) => this.record(streamName, event, { commit, prepare: commit + BigInt(index * 100) }));
    this.nextPosition = commit + BigInt(events.length * 100 + 100);
    this.appends++;
    if (this.options.systemEventEvery && this.appends % this.options.systemEventEvery === 0) this.appendSystemEvent();
    return { success: true, nextExpectedRevision: BigInt(current + events.length), position: { commit, prepare: commit } };
  }

  /** A system event, as the server writes them ($statsCollection every 30 s by default). */
  appendSystemEvent(): void {
    this.appendRaw('$stats-127.0.0.1:2113', { id: uuid(), contentType: 'application/json', type: '$statsCollection', data: { 'proc-cpu': 1 }, metadata: undefined });
  }

  /** An event of another application sharing the server: JSON without our metadata. */
  appendForeignEvent(type = 'ForeignThing'): void {
    this.appendRaw(`foreign-${uuid()}`, { id: uuid(), contentType: 'application/json', type, data: { any: 'thing' }, metadata: { source: 'elsewhere' } });
  }

  private appendRaw(streamName: string, event: EventData): void {
    const commit = this.nextPosition;
    this.record(streamName, event, { commit, prepare: commit });
    this.nextPosition = commit + 200n;
  }

  private record(streamName: string, event: EventData, position: Position): void {
    const stream = this.streams.get(streamName) ?? [];
    const isJson = event.contentType === 'application/json';
    const recorded = {
      streamId: streamName,
      id: event.id,
      isJson,
      revision: BigInt(stream.length),
      type: event.type,
      created: new Date(),
      data: isJson ? JSON.parse(JSON.stringify(event.data)) : event.data,
      metadata: event.metadata === undefined ? undefined : JSON.parse(JSON.stringify(event.metadata)),
      position,
    } as AllStreamRecordedEvent;
    stream.push(recorded);
    this.streams.set(streamName, stream);
    this.log.push(recorded);
    for (const subscription of this.subscriptions) subscription.offer(recorded);
  }

  readStream(streamName: string, options: ReadStreamOptions): StreamingRead<ResolvedEvent> {
    const stream = this.streams.get(streamName);
    if (!stream) return readable<ResolvedEvent>([], new StreamNotFoundError(undefined, streamName), this.options.latencyMs);
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
    return readable(selected.slice(0, count).map((event) => ({ event, commitPosition: event.position.commit })), null, this.options.latencyMs);
  }

  readAll(options: ReadAllOptions): StreamingRead<AllStreamResolvedEvent> {
    const from = options.fromPosition ?? START;
    const count = Number(options.maxCount ?? Number.MAX_SAFE_INTEGER);
    const compare = (a: Position, b: Position): number => (a.commit === b.commit ? Number(a.prepare - b.prepare) : Number(a.commit - b.commit));
    let selected: AllStreamRecordedEvent[];
    if (options.direction === BACKWARDS) {
      selected = (from === END ? this.log : from === START ? [] : this.log.filter((event) => compare(event.position, from) < 0)).slice().reverse();
    } else {
      selected = from === START ? this.log : from === END ? [] : this.log.filter((event) => compare(event.position, from) >= 0);
    }
    return readable(selected.slice(0, count).map((event) => ({ event, commitPosition: event.position.commit })), null, this.options.latencyMs);
  }

  subscribeToAll(options: SubscribeToAllOptions): AllStreamSubscription {
    const filter = options.filter;
    const pattern = filter && 'regex' in filter ? new RegExp(filter.regex) : null;
    const passes = (event: AllStreamRecordedEvent): boolean =>
      !filter || !pattern || pattern.test(filter.filterOn === 'eventType' ? event.type : event.streamId);
    const subscription = new FakeSubscription(passes, () => this.subscriptions.delete(subscription));
    const from = options.fromPosition ?? START;
    const history = from === END ? [] : from === START ? this.log : this.log.filter((event) => event.position.commit > from.commit || (event.position.commit === from.commit && event.position.prepare > from.prepare));
    this.subscriptions.add(subscription);
    setImmediate(() => {
      subscription.emit('confirmation');
      for (const event of history) subscription.offer(event);
    });
    return subscription as unknown as AllStreamSubscription;
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
    await new Promise((resolve) => (this.options.latencyMs ? setTimeout(resolve, this.options.latencyMs) : setImmediate(resolve)));
  }
}

class FakeSubscription extends Readable {
  id = uuid();

  constructor(
    private readonly passes: (event: AllStreamRecordedEvent) => boolean,
    private readonly onClose: () => void,
  ) {
    super({ objectMode: true, read: () => undefined });
    this.on('close', onClose);
  }

  offer(event: AllStreamRecordedEvent): void {
    if (!this.destroyed && this.passes(event)) this.push({ event, commitPosition: event.position.commit } satisfies AllStreamResolvedEvent);
  }

  fail(error: Error): void {
    this.onClose();
    this.destroy(error);
  }

  async unsubscribe(): Promise<void> {
    this.onClose();
    this.push(null);
  }
}

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
  return Object.assign(stream, { cancel: async () => void stream.destroy() }) as unknown as StreamingRead<E>;
}
