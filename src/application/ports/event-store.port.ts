import { LogEvent } from '../../domain/log-events';
import { Actor } from '../../domain/shared/actor';
import { Environment } from '../../domain/shared/environment';
import { EventStream, tableHolds } from '../../domain/shared/event-types';

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** Carried by every event: who, for whom, why and when. */
export interface EventMetadata {
  partnerId: string | null;
  environment: Environment | null;
  /** The order id for order-related events; otherwise the id of the originating request or command. */
  correlationId: string;
  /** The id of the event or request that caused this event. */
  causationId: string | null;
  actor: Actor;
  occurredAt: string;
  /**
   * The W3C `traceparent` of the request or job that appended the event, when tracing was on
   * (optional, absent from events written without it): jobs and webhooks link back to it.
   */
  traceparent?: string;
  /** Inside a job: the `traceparent` of the request that started the work (the order's placing request). */
  originTraceparent?: string;
}

/** What each member of a stream's (or the log's) union of events looks like: a `type` that tells it apart, and its data. */
export interface DomainEvent {
  readonly type: string;
  /** JSON, as the stores keep it. */
  readonly data: Readonly<Record<string, unknown>>;
}

/** An event as a store holds it before its log's decoder has said which one it is: any type, JSON data. */
export interface UntypedEvent {
  type: string;
  data: Record<string, unknown>;
}

/** What a store keeps around every event's type and data. */
export interface EventEnvelope {
  /** A UUID. Deterministic for events a process may append twice, so a repeat is a no-op. */
  eventId: string;
  schemaVersion: number;
  metadata: EventMetadata;
}

/** An event to append, one of the union `Event` (for a union, a union of envelopes: `type` narrows `data`). */
export type NewEvent<Event extends DomainEvent = LogEvent> = EventEnvelope & Event;

/**
 * A place in the global order of all events. For the SQL stores `commit` is the writing
 * transaction id and `prepare` the sequence number; for EventStoreDB they are its own log positions.
 */
export interface GlobalPosition {
  commit: bigint;
  prepare: bigint;
}

/** Where and when a store recorded an event. */
export interface RecordedPlace {
  streamId: string;
  /** 0 for the first event of a stream, in every adapter. */
  revision: number;
  position: GlobalPosition;
  recordedAt: string;
}

/** An event as read back, decoded into its union `Event`: switching on `type` narrows `data`. */
export type RecordedEvent<Event extends DomainEvent = LogEvent> = NewEvent<Event> & RecordedPlace;

/**
 * An event exactly as a store recorded it, to be stored again elsewhere (moving a history between stores):
 * its stream, revision, id and recorded time are kept; its global position is the new store's to give.
 * Stored as it is, so not decoded: reading it back from the new store decodes it.
 */
export type HistoricalEvent = NewEvent<UntypedEvent> & Omit<RecordedPlace, 'position'>;

/** A stream named by its id alone, or with the union of events it holds (then every event read is checked against it). */
export type StreamRef = string | EventStream<DomainEvent>;

export const streamIdOf = (stream: StreamRef): string => (typeof stream === 'string' ? stream : stream.id);

/** An event read from a stream that does not hold its type: the log is not what this release wrote. */
export class UnexpectedEventError extends Error {
  constructor(
    readonly streamId: string,
    readonly eventId: string,
    readonly type: string,
  ) {
    super(`stream ${streamId} holds event ${eventId} of type ${type}, which is not one of its events`);
    this.name = 'UnexpectedEventError';
  }
}

/**
 * True when the event is of one of the table's types: narrows an event of the log to that part of its union
 * (the types are inferred from the table, e.g. WALLET_EVENTS: a wallet event).
 */
export const isOneOf = <Event extends DomainEvent, Type extends Event['type']>(
  types: Readonly<Record<Type, true>>,
  event: RecordedEvent<Event>,
): event is Extract<RecordedEvent<Event>, { type: Type }> => tableHolds(types, event.type);

/** The event as one of the table's types (the union its stream holds), or UnexpectedEventError. */
export function oneOf<Event extends DomainEvent, Type extends Event['type']>(
  types: Readonly<Record<Type, true>>,
  event: RecordedEvent<Event>,
): Extract<RecordedEvent<Event>, { type: Type }> {
  if (isOneOf(types, event)) return event;
  throw new UnexpectedEventError(event.streamId, event.eventId, event.type);
}

/** The event, once checked to be one the stream holds (when the stream says which). */
export function inStream<Event extends DomainEvent>(
  stream: StreamRef,
  event: RecordedEvent<Event>,
): RecordedEvent<Event> {
  if (typeof stream !== 'string' && !tableHolds(stream.holds, event.type))
    throw new UnexpectedEventError(stream.id, event.eventId, event.type);
  return event;
}

/** A revision number, or a condition on the stream. */
export type ExpectedRevision = number | 'no_stream' | 'stream_exists' | 'any';

export interface AppendResult {
  /** Revision of the stream's last event after the append. */
  nextRevision: number;
  /** Position of the last appended event; null when every event was already there. */
  position: GlobalPosition | null;
  /** True when every event id was already stored, so nothing was written. */
  deduplicated: boolean;
}

export class WrongExpectedRevisionError extends Error {
  constructor(
    readonly streamId: string,
    readonly expected: ExpectedRevision,
    readonly actual: number | 'no_stream',
  ) {
    super(`stream ${streamId}: expected revision ${String(expected)}, found ${String(actual)}`);
    this.name = 'WrongExpectedRevisionError';
  }
}

/** An event id that is already stored for a different event (other stream or a partial batch). */
export class DuplicateEventIdError extends Error {
  constructor(readonly eventIds: string[]) {
    super(`event ids already stored elsewhere: ${eventIds.join(', ')}`);
    this.name = 'DuplicateEventIdError';
  }
}

/**
 * An Idempotency-Key bound, in the same commit as the events, to the order they debit and to the
 * answer a repeat of the request gets. The key moves money once, with its answer, or not at all.
 */
export interface KeyBinding {
  partnerId: string;
  environment: Environment;
  key: string;
  requestHash: string;
  orderId: string;
  statusCode: number;
  /** The answer exactly as it is sent. */
  body: string;
  createdAt: string;
  expiresAt: string;
}

export interface AppendOptions {
  /** Only for stores whose `bindsIdempotencyKeys` is true. */
  idempotencyKeys?: readonly KeyBinding[];
  /**
   * Background work (settlement): the append may wait for the end of the event loop's current
   * turn, to share one write with the appends made in the same turn (the outcomes of the jobs
   * of one claim). Same guarantees per stream; stores that write one stream at a time ignore it.
   */
  gatherTurn?: boolean;
}

/** One string per key scope (partner, environment, key), to match bindings with each other. */
export const keyBindingId = (binding: { partnerId: string; environment: string; key: string }): string =>
  JSON.stringify([binding.partnerId, binding.environment, binding.key]);

/** One of the keys an append was to bind is bound already (or expired, not yet purged): nothing was written. */
export class IdempotencyKeyTakenError extends Error {
  constructor(readonly keys: readonly KeyBinding[]) {
    super(`an Idempotency-Key of this append is bound already: ${keys.map((binding) => binding.key).join(', ')}`);
    this.name = 'IdempotencyKeyTakenError';
  }
}

/** One stream's part of `appendMany`: at a known revision, or as a new stream. */
export interface StreamAppend<Event extends DomainEvent = LogEvent> {
  streamId: string;
  events: readonly NewEvent<Event>[];
  expected: number | 'no_stream';
  /** As in AppendOptions: only for stores whose `bindsIdempotencyKeys` is true. */
  idempotencyKeys?: readonly KeyBinding[];
}

/** Refusals that concern one stream's append only; the other appends of the call are not affected. */
export type StreamAppendRefusal = WrongExpectedRevisionError | DuplicateEventIdError | IdempotencyKeyTakenError;

export type StreamAppendOutcome = { ok: true; result: AppendResult } | { ok: false; error: StreamAppendRefusal };

export const isStreamAppendRefusal = (error: unknown): error is StreamAppendRefusal =>
  error instanceof WrongExpectedRevisionError ||
  error instanceof DuplicateEventIdError ||
  error instanceof IdempotencyKeyTakenError;

export interface ReadAllOptions {
  maxCount: number;
  /** Only events of these types are returned (the position still advances past the others). */
  eventTypes?: ReadonlySet<string>;
}

/**
 * The log. Generic over the union of the events it holds (`LogEvent` for the service's log): each adapter
 * decodes what it reads at one point (an `EventDecoder`), so readers switch on `type` and never cast.
 */
export interface EventStore<Event extends DomainEvent = LogEvent> {
  /**
   * True when `append` can bind Idempotency-Keys in the same commit as the events (the SQL stores,
   * whose keys live in the same database). Otherwise keys are reserved and answered around the append.
   */
  readonly bindsIdempotencyKeys?: boolean;
  append<Appended extends Event>(
    streamId: string,
    events: readonly NewEvent<Appended>[],
    expected: ExpectedRevision,
    options?: AppendOptions,
  ): Promise<AppendResult>;
  /**
   * Appends to several streams at once, each with the guarantees of `append` on its own: all of a
   * stream's events (and its keys) or none. The SQL stores write them in one statement and one commit;
   * a stream whose revision moved, whose key is bound or whose event id is stored elsewhere is refused
   * alone, in its outcome, and the others are written. A rejected promise (the database went away)
   * leaves every outcome unknown, as a failed `append` does. Outcomes come in the order of `appends`.
   */
  appendMany(appends: readonly StreamAppend<Event>[]): Promise<StreamAppendOutcome[]>;
  /**
   * Events of one stream from `fromRevision` (inclusive), oldest first, at most `maxCount` of them
   * when given (readers page through long streams with it). Empty for a stream that does not exist.
   * Given the stream with the union it holds, each event is checked to be one of it (UnexpectedEventError).
   */
  readStream(streamId: string, fromRevision?: number, maxCount?: number): Promise<RecordedEvent<Event>[]>;
  readStream<Held extends Event>(
    stream: EventStream<Held>,
    fromRevision?: number,
    maxCount?: number,
  ): Promise<RecordedEvent<Held>[]>;
  /** The newest event of a stream, as soon as its append has returned; null for a stream that does not exist. */
  readLastEvent(streamId: string): Promise<RecordedEvent<Event> | null>;
  readLastEvent<Held extends Event>(stream: EventStream<Held>): Promise<RecordedEvent<Held> | null>;
  /** Committed events strictly after `after` (null: from the start), in global order, never skipping one. */
  readAll(after: GlobalPosition | null, options: ReadAllOptions): Promise<RecordedEvent<Event>[]>;
  /** Position of the newest readable event, for lag figures. */
  headPosition(): Promise<GlobalPosition | null>;
  /**
   * How many readable events lie strictly after `after` (null: from the start) and, when `upTo`
   * is given, at or before it: a projection's lag, or the work left for a rebuild.
   */
  countEvents(after: GlobalPosition | null, upTo?: GlobalPosition | null): Promise<number>;
  /**
   * Every event whose metadata carries this correlation id, from any stream, in global order:
   * an order's whole history (its debit and refund, its transaction stream).
   */
  readByCorrelationId(correlationId: string): Promise<RecordedEvent<Event>[]>;
  /**
   * Committed events a reader cannot see yet because an older transaction is still open
   * (SQL stores); 0 when every committed event is readable.
   */
  countCommittedNotYetReadable(): Promise<number>;
  /**
   * Stores events as another store recorded them (`data import`), in the order given, which becomes their
   * global order: each at its own revision, which must be the next one of its stream (0 for a new stream),
   * with its id and recorded time. Not for the service's own writes: it binds no Idempotency-Key and takes
   * no expected revision. A revision out of turn throws WrongExpectedRevisionError, an id stored already
   * DuplicateEventIdError, and nothing of the batch is stored where the store can commit it as one.
   */
  importEvents(events: readonly HistoricalEvent[]): Promise<void>;
  /** Called after each local append, so readers in this process need not wait for a poll. */
  onAppended(listener: () => void): () => void;
  close(): Promise<void>;
}

export const EVENT_STORE = Symbol('EventStore');

export const comparePositions = (a: GlobalPosition, b: GlobalPosition): number =>
  a.commit === b.commit ? (a.prepare === b.prepare ? 0 : a.prepare < b.prepare ? -1 : 1) : a.commit < b.commit ? -1 : 1;
