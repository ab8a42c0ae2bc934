import {
  ANY,
  AccessDeniedError,
  AppendExpectedRevision,
  CurrentRevision,
  DeadlineExceededError,
  ErrorType,
  EventData,
  MaxAppendSizeExceededError,
  NO_STREAM,
  Position,
  RecordedEvent as EsdbRecordedEvent,
  STREAM_EXISTS,
  StreamDeletedError,
  StreamNotFoundError,
  TimeoutError,
  UnavailableError,
  WrongExpectedVersionError,
  jsonEvent,
} from '@eventstore/db-client';
import {
  DomainEvent,
  EventMetadata,
  ExpectedRevision,
  GlobalPosition,
  HistoricalEvent,
  NewEvent,
  RecordedEvent,
  UntypedEvent,
  WrongExpectedRevisionError,
} from '../../application/ports/event-store.port';

/*
 * Pure conversions between the event-store port and @eventstore/db-client 6.x. Nothing here talks to a server.
 *
 * Stored shape of one of our events:
 *   id        = NewEvent.eventId (a UUID; ESDB requires one)
 *   type      = NewEvent.type (never `$`-prefixed: those are EventStoreDB's system events)
 *   data      = NewEvent.data as JSON (content type application/json)
 *   metadata  = { ...EventMetadata, $schemaVersion, $correlationId, $causationId?, $recordedAt? } as JSON
 *               ($recordedAt only on events brought in by `data import`: their first store's recorded time)
 * `$correlationId`/`$causationId` are the keys EventStoreDB's own projections ($by_correlation_id) read.
 * On read, every `$`-prefixed key is removed again, which restores our EventMetadata exactly
 * (none of its keys starts with `$`).
 */

export const SCHEMA_VERSION_KEY = '$schemaVersion';
export const ESDB_CORRELATION_ID_KEY = '$correlationId';
export const ESDB_CAUSATION_ID_KEY = '$causationId';
/**
 * The time another store recorded an imported event. EventStoreDB sets an event's own `created` time itself, so an
 * imported event keeps its original time here, and reads report this one instead of `created`.
 */
export const RECORDED_AT_KEY = '$recordedAt';

/** An event that cannot be read back as one of ours, or one we refuse to write. */
export class EventStoreDbMappingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EventStoreDbMappingError';
  }
}

/** What reading $all needs: by default only $admins may read it (and subscribe to it). */
export const ALL_STREAM_READ_RIGHT =
  "the service's EventStoreDB user must be able to read $all: put it in $admins or grant read on $$$all";

/** What the service's own streams need; the server's default ACL of user streams allows it to every authenticated user. */
export const STREAM_RIGHTS = "the service's EventStoreDB user must be able to read and write the service's streams";

/** EventStoreDB refused the service's user an operation; the message says which right is missing. */
export class EventStoreDbAccessDeniedError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'EventStoreDbAccessDeniedError';
  }
}

/**
 * A hard-deleted (tombstoned) stream. Its events can no longer be read, and it cannot be written again. The service
 * never deletes streams, and every stream it reads holds money history or guards it (event-id claims, the
 * correlation index), so this is never taken for a missing stream.
 */
export class EventStoreDbStreamDeletedError extends Error {
  constructor(
    readonly streamId: string,
    options?: ErrorOptions,
  ) {
    super(
      `stream ${streamId} was hard-deleted (tombstoned) in EventStoreDB: the service never deletes streams and will not read it as empty; restore EventStoreDB from a backup taken before the deletion`,
      options,
    );
    this.name = 'EventStoreDbStreamDeletedError';
  }
}

/** A batch larger than the server accepts in one append (MaxAppendSize); nothing of it was written. */
export class EventStoreDbAppendTooLargeError extends Error {
  constructor(
    readonly streamId: string,
    message: string,
    options?: ErrorOptions,
  ) {
    super(`stream ${streamId}: ${message}; nothing was written`, options);
    this.name = 'EventStoreDbAppendTooLargeError';
  }
}

/**
 * An append that may or may not have been written, and may still be: the caller must read the stream before
 * deciding again. Repeating it with the same event ids is safe (a stored batch makes the repeat a no-op).
 */
export class EventStoreDbAppendOutcomeUnknownError extends Error {
  constructor(
    readonly streamId: string,
    options: ErrorOptions & { cause: unknown },
  ) {
    super(
      `stream ${streamId}: the append's outcome is unknown (${describeError(options.cause)}); it may have been written: read the stream before deciding again`,
      options,
    );
    this.name = 'EventStoreDbAppendOutcomeUnknownError';
  }
}

/** The client's errors are all named Error and often have no message; their `type` says what happened. */
function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const kind = 'type' in error && typeof error.type === 'string' ? error.type : error.name;
  return error.message ? `${kind}: ${error.message}` : kind;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type PlainObject = Record<string, unknown>;

export const isPlainObject = (value: unknown): value is PlainObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Uint8Array);

/** EventStoreDB's system events (`$metadata`, `$>` links, `$statsCollection`, our id claims...) have `$`-prefixed types. */
export const isSystemEventType = (type: string): boolean => type.startsWith('$');

export function toEventData(event: NewEvent<DomainEvent>): EventData {
  if (!UUID.test(event.eventId)) throw new EventStoreDbMappingError(`event id ${event.eventId} is not a UUID`);
  if (isSystemEventType(event.type))
    throw new EventStoreDbMappingError(`event type ${event.type}: types starting with $ are reserved for EventStoreDB`);
  if (!Number.isSafeInteger(event.schemaVersion))
    throw new EventStoreDbMappingError(`event ${event.eventId}: schemaVersion must be an integer`);
  const metadata: PlainObject = {
    ...event.metadata,
    [SCHEMA_VERSION_KEY]: event.schemaVersion,
    [ESDB_CORRELATION_ID_KEY]: event.metadata.correlationId,
  };
  if (event.metadata.causationId !== null) metadata[ESDB_CAUSATION_ID_KEY] = event.metadata.causationId;
  return jsonEvent({ id: event.eventId, type: event.type, data: event.data, metadata });
}

/** An imported event, carrying the time its first store recorded it (see RECORDED_AT_KEY). */
export function toImportedEventData(event: HistoricalEvent): EventData {
  if (Number.isNaN(Date.parse(event.recordedAt)))
    throw new EventStoreDbMappingError(`event ${event.eventId}: recorded time ${event.recordedAt} is not a time`);
  const data = toEventData(event);
  return {
    ...data,
    metadata: { ...(data.metadata as PlainObject), [RECORDED_AT_KEY]: new Date(event.recordedAt).toISOString() },
  };
}

/** True for events written through this adapter: JSON, not a system type, with our schema version in the metadata. */
export function isServiceEvent(event: EsdbRecordedEvent): boolean {
  return (
    !isSystemEventType(event.type) &&
    event.isJson &&
    isPlainObject(event.metadata) &&
    Number.isSafeInteger(event.metadata[SCHEMA_VERSION_KEY])
  );
}

/** The oldest server whose stream reads carry each event's log position. */
export const MIN_SERVER_VERSION = '22.6';

/** What servers before 22.6 send as commit and prepare position on stream reads (-1 as an unsigned 64-bit number). */
const UNKNOWN_POSITION = 2n ** 64n - 1n;

/**
 * An event's position in $all, or null when the server sent none: servers before 22.6 answer stream reads with
 * 2^64-1 for both, and a reply without the fields reaches the client as protobuf's defaults, 0/0 (the log starts
 * with an epoch record, so no event is at 0).
 */
export function logPosition(position: Position | undefined): GlobalPosition | null {
  if (!position) return null;
  if (position.commit === UNKNOWN_POSITION || position.prepare === UNKNOWN_POSITION) return null;
  if (position.commit === 0n && position.prepare === 0n) return null;
  return toGlobalPosition(position);
}

/**
 * Maps a stored event back, still undecoded (the store's decoder says which of its events it is); a log position
 * is required (stream reads carry it from EventStoreDB 22.6 on).
 */
export function toRecordedEvent(event: EsdbRecordedEvent): RecordedEvent<UntypedEvent> {
  const where = `${event.streamId}@${event.revision}`;
  const position = logPosition(event.position);
  if (!position)
    throw new EventStoreDbMappingError(
      `${where}: the server sent no log position (EventStoreDB ${MIN_SERVER_VERSION} or later is required)`,
    );
  if (!event.isJson || !isPlainObject(event.data))
    throw new EventStoreDbMappingError(`${where}: data is not a JSON object`);
  if (!isPlainObject(event.metadata)) throw new EventStoreDbMappingError(`${where}: metadata is not a JSON object`);
  const schemaVersion = event.metadata[SCHEMA_VERSION_KEY];
  if (typeof schemaVersion !== 'number' || !Number.isSafeInteger(schemaVersion)) {
    throw new EventStoreDbMappingError(`${where}: metadata has no ${SCHEMA_VERSION_KEY}`);
  }
  return {
    eventId: event.id,
    streamId: event.streamId,
    revision: fromEsdbRevision(event.revision),
    type: event.type,
    schemaVersion,
    data: event.data,
    metadata: toEventMetadata(event.metadata, where),
    position,
    recordedAt: recordedAtOf(event),
  };
}

/** An imported event's original time where it carries one, else the time EventStoreDB recorded it. */
function recordedAtOf(event: EsdbRecordedEvent): string {
  const imported = isPlainObject(event.metadata) ? event.metadata[RECORDED_AT_KEY] : undefined;
  return typeof imported === 'string' && !Number.isNaN(Date.parse(imported)) ? imported : event.created.toISOString();
}

function toEventMetadata(stored: PlainObject, where: string): EventMetadata {
  const ours: PlainObject = {};
  for (const [key, value] of Object.entries(stored)) if (!key.startsWith('$')) ours[key] = value;
  if (typeof ours.correlationId !== 'string' || typeof ours.occurredAt !== 'string' || !isPlainObject(ours.actor)) {
    throw new EventStoreDbMappingError(`${where}: metadata lacks correlationId, occurredAt or actor`);
  }
  return ours as unknown as EventMetadata;
}

export const toGlobalPosition = (position: Position): GlobalPosition => ({
  commit: position.commit,
  prepare: position.prepare,
});

export const toEsdbPosition = (position: GlobalPosition): Position => ({
  commit: position.commit,
  prepare: position.prepare,
});

/** A stable text form of a position, for map keys and messages. */
export const positionKey = (position: GlobalPosition | null): string =>
  position ? `${position.commit}/${position.prepare}` : 'start';

/** ESDB revisions are unsigned 64-bit; ours are JavaScript numbers. Both count a stream's first event as 0. */
export function fromEsdbRevision(revision: bigint): number {
  if (revision < 0n || revision > BigInt(Number.MAX_SAFE_INTEGER))
    throw new RangeError(`stream revision ${revision} is out of range`);
  return Number(revision);
}

/** The server's "current revision" of a stream: a revision, or no_stream when it has no events. */
export const fromEsdbCurrentRevision = (current: CurrentRevision): number | 'no_stream' =>
  current === NO_STREAM ? 'no_stream' : fromEsdbRevision(current);

/**
 * The port's expected revision as the client's. -1 (a "revision" before the first event) means no stream;
 * anything else below 0 or not an integer is refused.
 */
export function toEsdbExpectedRevision(expected: ExpectedRevision): AppendExpectedRevision {
  switch (expected) {
    case 'any':
      return ANY;
    case 'no_stream':
      return NO_STREAM;
    case 'stream_exists':
      return STREAM_EXISTS;
    default:
      if (!Number.isSafeInteger(expected) || expected < -1)
        throw new RangeError(`expected revision ${expected} is not a revision`);
      return expected === -1 ? NO_STREAM : BigInt(expected);
  }
}

/** The revision the first of the appended events gets, when the stream is expected at `expected` (-1: no stream). */
export const firstRevisionAfter = (expected: number): number => expected + 1;

export function isWrongExpectedVersion(error: unknown): error is WrongExpectedVersionError {
  return (
    error instanceof WrongExpectedVersionError ||
    (isPlainErrorOfType(error, ErrorType.WRONG_EXPECTED_VERSION) && 'actualVersion' in error)
  );
}

export function isStreamNotFound(error: unknown): boolean {
  return error instanceof StreamNotFoundError || isPlainErrorOfType(error, ErrorType.STREAM_NOT_FOUND);
}

/** A hard-deleted (tombstoned) stream: reads and appends fail with this for ever. */
export function isStreamDeleted(error: unknown): boolean {
  return error instanceof StreamDeletedError || isPlainErrorOfType(error, ErrorType.STREAM_DELETED);
}

export function isAccessDenied(error: unknown): boolean {
  return error instanceof AccessDeniedError || isPlainErrorOfType(error, ErrorType.ACCESS_DENIED);
}

export function isMaxAppendSizeExceeded(error: unknown): boolean {
  return (
    error instanceof MaxAppendSizeExceededError || isPlainErrorOfType(error, ErrorType.MAXIMUM_APPEND_SIZE_EXCEEDED)
  );
}

/**
 * Errors after which an append may or may not have been written: the server's write timeout (reported as
 * DeadlineExceededError), a lost connection, an aborted call. The write may still commit after the error.
 */
export function isOutcomeUnknown(error: unknown): boolean {
  return (
    error instanceof DeadlineExceededError ||
    error instanceof UnavailableError ||
    error instanceof TimeoutError ||
    [ErrorType.DEADLINE_EXCEEDED, ErrorType.UNAVAILABLE, ErrorType.TIMEOUT].some((type) =>
      isPlainErrorOfType(error, type),
    )
  );
}

function isPlainErrorOfType(error: unknown, type: ErrorType): error is Error & { type: ErrorType } {
  return error instanceof Error && 'type' in error && (error as { type: unknown }).type === type;
}

/**
 * The client's WrongExpectedVersionError as the port's WrongExpectedRevisionError, carrying the revision
 * the caller asked for (not the concrete one an `any` or `stream_exists` append was turned into).
 */
export function translateAppendError(error: unknown, streamId: string, expected: ExpectedRevision): unknown {
  if (!isWrongExpectedVersion(error)) return error;
  return new WrongExpectedRevisionError(streamId, expected, fromEsdbCurrentRevision(error.actualVersion));
}

/** An error of a read of $all or of the $all subscription, with the missing right spelled out when access was denied. */
export function explainAllStreamError(error: unknown): unknown {
  if (!isAccessDenied(error)) return error;
  return new EventStoreDbAccessDeniedError(`EventStoreDB denied access to $all; ${ALL_STREAM_READ_RIGHT}`, {
    cause: error,
  });
}

/**
 * An error of a read of, or an append to, one stream, as one that says what is wrong: a tombstone, a missing right,
 * an oversized batch. Others (a wrong expected revision, a timeout...) pass through unchanged.
 */
export function explainStreamError(error: unknown, streamId: string, operation: 'read' | 'append'): unknown {
  if (isStreamDeleted(error)) return new EventStoreDbStreamDeletedError(streamId, { cause: error });
  if (isAccessDenied(error)) {
    const what = operation === 'read' ? `reading stream ${streamId}` : `appending to stream ${streamId}`;
    return new EventStoreDbAccessDeniedError(`EventStoreDB denied ${what}; ${STREAM_RIGHTS}`, { cause: error });
  }
  if (isMaxAppendSizeExceeded(error)) {
    const limit = error instanceof MaxAppendSizeExceededError ? `${error.maxAppendSize} bytes` : 'its limit';
    return new EventStoreDbAppendTooLargeError(
      streamId,
      `EventStoreDB refused the batch as larger than its MaxAppendSize (${limit})`,
      { cause: error },
    );
  }
  return error;
}

/** EventStoreDB's default MaxAppendSize: the most one append may carry, in bytes. */
export const DEFAULT_MAX_APPEND_SIZE_BYTES = 1_048_576;

/**
 * The size EventStoreDB counts against MaxAppendSize: for each event, the bytes of its data and metadata as sent,
 * plus two per character of its type.
 */
export function appendSizeBytes(events: readonly EventData[]): number {
  return events.reduce(
    (total, event) =>
      total + payloadBytes(event.data) + (event.metadata ? payloadBytes(event.metadata) : 0) + event.type.length * 2,
    0,
  );
}

/** The client sends JSON content as JSON.stringify's UTF-8 and binary content as is. */
const payloadBytes = (content: unknown): number =>
  content instanceof Uint8Array ? content.byteLength : Buffer.byteLength(JSON.stringify(content) ?? '', 'utf8');

export interface ClientSettings {
  /** Interval of gRPC keep-alive pings, ms. 10 s is the client's recommended floor (it warns below). */
  keepAliveInterval: number;
  /** How long a ping may go unanswered before the channel is declared dead, ms. */
  keepAliveTimeout: number;
  /** Deadline of unary calls that are given none, ms. */
  defaultDeadline: number;
}

export const DEFAULT_CLIENT_SETTINGS: ClientSettings = {
  keepAliveInterval: 10_000,
  keepAliveTimeout: 10_000,
  defaultDeadline: 10_000,
};

/** The client's own key normalisation: case-insensitive, `_` and `-` ignored. */
const flatKey = (key: string): string => key.trim().toLowerCase().replace(/[_-]/g, '');

/**
 * Adds our keep-alive and deadline settings to a connection string that does not set them, and forces
 * `throwOnAppendFailure=true`: the adapter relies on WrongExpectedVersionError being thrown (with `false`,
 * client 6.2.1 also reports a wrong current revision from batch appends).
 */
export function withClientSettings(
  connectionString: string,
  settings: ClientSettings = DEFAULT_CLIENT_SETTINGS,
): string {
  const trimmed = connectionString.trim().replace(/\/+$/, '');
  const queryAt = trimmed.indexOf('?');
  const base = queryAt < 0 ? trimmed : trimmed.slice(0, queryAt);
  const pairs =
    queryAt < 0
      ? []
      : trimmed
          .slice(queryAt + 1)
          .split('&')
          .filter((pair) => pair.length > 0);
  const kept = pairs.filter((pair) => flatKey(pair.split('=')[0]) !== 'throwonappendfailure');
  const present = new Set(kept.map((pair) => flatKey(pair.split('=')[0])));
  const added = (Object.keys(settings) as (keyof ClientSettings)[])
    .filter((key) => !present.has(flatKey(key)))
    .map((key) => `${key}=${settings[key]}`);
  return `${base}?${[...kept, ...added, 'throwOnAppendFailure=true'].join('&')}`;
}
