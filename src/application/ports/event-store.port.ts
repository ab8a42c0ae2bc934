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

/** An event as a store holds it before its log's decoder has said which one it is: a type name and JSON data. */
export interface UntypedEvent {
  type: string;
  data: Record<string, unknown>;
}

/** What a store keeps around every event's type and data. */
export interface EventEnvelope {
  /**
   * A UUID, unique within its stream (decision 0158; EventStoreDB's adapter also refuses it in another stream).
   * Deterministic for events a process may append twice, so a repeat to the same stream is a no-op.
   */
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

/** An event id its stream already holds for a different event, or a batch mixing stored and new ids (or one id twice). */
export class DuplicateEventIdError extends Error {
  constructor(readonly eventIds: string[]) {
    super(`event ids already stored for other events: ${eventIds.join(', ')}`);
    this.name = 'DuplicateEventIdError';
  }
}

export interface AppendOptions {
  /**
   * Background work (settlement): the append may wait for the end of the event loop's current
   * turn, to share one write with the appends made in the same turn (the outcomes of the jobs
   * of one claim). Same guarantees per stream; stores that write one stream at a time ignore it.
   */
  gatherTurn?: boolean;
}

export interface ReadAllOptions {
  maxCount: number;
  /** Only events of these types are returned (the position still advances past the others). */
  eventTypes?: ReadonlySet<string>;
}

/**
 * The log: append, read a stream or everything in global order, hear of appends. Each adapter decodes what it
 * reads at one point (an `EventDecoder`), so readers switch on `type` and never cast; what some stores add has
 * ports of its own (KeyBindingAppend, EventsByCorrelation, EventLogDiagnostics, EventImport).
 */
export interface EventStore<Event extends DomainEvent = LogEvent> {
  /**
   * Appends the events after `expected`, all of them or none. Appends made at the same time may share one write
   * (the SQL stores commit concurrent appends to different streams in one statement), each with its own outcome.
   */
  append<Appended extends Event>(
    streamId: string,
    events: readonly NewEvent<Appended>[],
    expected: ExpectedRevision,
    options?: AppendOptions,
  ): Promise<AppendResult>;
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
  /**
   * The newest event of a stream, as soon as its append has returned; null for a stream that does not exist.
   * One index lookup: what a balance answer and the folds kept up to date per request (routes, operators) read.
   */
  readLastEvent(streamId: string): Promise<RecordedEvent<Event> | null>;
  readLastEvent<Held extends Event>(stream: EventStream<Held>): Promise<RecordedEvent<Held> | null>;
  /** Committed events strictly after `after` (null: from the start), in global order, never skipping one. */
  readAll(after: GlobalPosition | null, options: ReadAllOptions): Promise<RecordedEvent<Event>[]>;
  /**
   * Wakes `listener` after appends (this process's, and others' where the store can tell) so readers read on from
   * their checkpoint at once. A wake-up carries no event. Returns the unsubscribe.
   */
  subscribe(listener: () => void): () => void;
  close(): Promise<void>;
}

export const EVENT_STORE = Symbol('EventStore');

export const comparePositions = (a: GlobalPosition, b: GlobalPosition): number =>
  a.commit === b.commit ? (a.prepare === b.prepare ? 0 : a.prepare < b.prepare ? -1 : 1) : a.commit < b.commit ? -1 : 1;
