import {
  ANY,
  AppendExpectedRevision,
  CurrentRevision,
  ErrorType,
  EventData,
  NO_STREAM,
  Position,
  RecordedEvent as EsdbRecordedEvent,
  STREAM_EXISTS,
  StreamNotFoundError,
  WrongExpectedVersionError,
  jsonEvent,
} from '@eventstore/db-client';
import {
  EventMetadata,
  ExpectedRevision,
  GlobalPosition,
  NewEvent,
  RecordedEvent,
  WrongExpectedRevisionError,
} from '../../application/ports/event-store.port';

/*
 * Pure conversions between the event-store port and @eventstore/db-client 6.x. Nothing here talks to a server.
 *
 * Stored shape of one of our events:
 *   id        = NewEvent.eventId (a UUID; ESDB requires one)
 *   type      = NewEvent.type (never `$`-prefixed: those are EventStoreDB's system events)
 *   data      = NewEvent.data as JSON (content type application/json)
 *   metadata  = { ...EventMetadata, $schemaVersion, $correlationId, $causationId? } as JSON
 * `$correlationId`/`$causationId` are the keys EventStoreDB's own projections ($by_correlation_id) read.
 * On read, every `$`-prefixed key is removed again, which restores our EventMetadata exactly
 * (none of its keys starts with `$`).
 */

export const SCHEMA_VERSION_KEY = '$schemaVersion';
export const ESDB_CORRELATION_ID_KEY = '$correlationId';
export const ESDB_CAUSATION_ID_KEY = '$causationId';

/** An event that cannot be read back as one of ours, or one we refuse to write. */
export class EventStoreDbMappingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EventStoreDbMappingError';
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type PlainObject = { [key: string]: unknown };

export const isPlainObject = (value: unknown): value is PlainObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Uint8Array);

/** EventStoreDB's system events (`$metadata`, `$>` links, `$statsCollection`, our id claims...) have `$`-prefixed types. */
export const isSystemEventType = (type: string): boolean => type.startsWith('$');

export function toEventData(event: NewEvent): EventData {
  if (!UUID.test(event.eventId)) throw new EventStoreDbMappingError(`event id ${event.eventId} is not a UUID`);
  if (isSystemEventType(event.type)) throw new EventStoreDbMappingError(`event type ${event.type}: types starting with $ are reserved for EventStoreDB`);
  if (!Number.isSafeInteger(event.schemaVersion)) throw new EventStoreDbMappingError(`event ${event.eventId}: schemaVersion must be an integer`);
  const metadata: PlainObject = {
    ...event.metadata,
    [SCHEMA_VERSION_KEY]: event.schemaVersion,
    [ESDB_CORRELATION_ID_KEY]: event.metadata.correlationId,
  };
  if (event.metadata.causationId !== null) metadata[ESDB_CAUSATION_ID_KEY] = event.metadata.causationId;
  return jsonEvent({ id: event.eventId, type: event.type, data: event.data, metadata });
}

/** True for events written through this adapter: JSON, not a system type, with our schema version in the metadata. */
export function isServiceEvent(event: EsdbRecordedEvent): boolean {
  return !isSystemEventType(event.type) && event.isJson && isPlainObject(event.metadata) && Number.isSafeInteger(event.metadata[SCHEMA_VERSION_KEY]);
}

/** Maps a stored event back; `position` is required (stream reads carry it from EventStoreDB 22.6 on). */
export function toRecordedEvent(event: EsdbRecordedEvent): RecordedEvent {
  const where = `${event.streamId}@${event.revision}`;
  if (!event.position) {
    throw new EventStoreDbMappingError(`${where}: the server sent no log position (EventStoreDB 22.6 or later is required)`);
  }
  if (!event.isJson || !isPlainObject(event.data)) throw new EventStoreDbMappingError(`${where}: data is not a JSON object`);
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
    position: toGlobalPosition(event.position),
    recordedAt: event.created.toISOString(),
  };
}

function toEventMetadata(stored: PlainObject, where: string): EventMetadata {
  const ours: PlainObject = {};
  for (const [key, value] of Object.entries(stored)) if (!key.startsWith('$')) ours[key] = value;
  if (typeof ours.correlationId !== 'string' || typeof ours.occurredAt !== 'string' || !isPlainObject(ours.actor)) {
    throw new EventStoreDbMappingError(`${where}: metadata lacks correlationId, occurredAt or actor`);
  }
  return ours as unknown as EventMetadata;
}

export const toGlobalPosition = (position: Position): GlobalPosition => ({ commit: position.commit, prepare: position.prepare });

export const toEsdbPosition = (position: GlobalPosition): Position => ({ commit: position.commit, prepare: position.prepare });

/** A stable text form of a position, for map keys and messages. */
export const positionKey = (position: GlobalPosition | null): string => (position ? `${position.commit}/${position.prepare}` : 'start');

/** ESDB revisions are unsigned 64-bit; ours are JavaScript numbers. Both count a stream's first event as 0. */
export function fromEsdbRevision(revision: bigint): number {
  if (revision < 0n || revision > BigInt(Number.MAX_SAFE_INTEGER)) throw new RangeError(`stream revision ${revision} is out of range`);
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
      if (!Number.isSafeInteger(expected) || expected < -1) throw new RangeError(`expected revision ${expected} is not a revision`);
      return expected === -1 ? NO_STREAM : BigInt(expected);
  }
}

/** The revision the first of the appended events gets, when the stream is expected at `expected` (-1: no stream). */
export const firstRevisionAfter = (expected: number): number => expected + 1;

export function isWrongExpectedVersion(error: unknown): error is WrongExpectedVersionError {
  return error instanceof WrongExpectedVersionError || (isPlainErrorOfType(error, ErrorType.WRONG_EXPECTED_VERSION) && 'actualVersion' in error);
}

export function isStreamNotFound(error: unknown): boolean {
  return error instanceof StreamNotFoundError || isPlainErrorOfType(error, ErrorType.STREAM_NOT_FOUND);
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

export interface ClientSettings {
  /** Interval of gRPC keep-alive pings, ms. 10 s is the client's recommended floor (it warns below). */
  keepAliveInterval: number;
  /** How long a ping may go unanswered before the channel is declared dead, ms. */
  keepAliveTimeout: number;
  /** Deadline of unary calls that are given none, ms. */
  defaultDeadline: number;
}

export const DEFAULT_CLIENT_SETTINGS: ClientSettings = { keepAliveInterval: 10_000, keepAliveTimeout: 10_000, defaultDeadline: 10_000 };

/** The client's own key normalisation: case-insensitive, `_` and `-` ignored. */
const flatKey = (key: string): string => key.trim().toLowerCase().replace(/[_-]/g, '');

/**
 * Adds our keep-alive and deadline settings to a connection string that does not set them, and forces
 * `throwOnAppendFailure=true`: the adapter relies on WrongExpectedVersionError being thrown (with `false`,
 * client 6.2.1 also reports a wrong current revision from batch appends).
 */
export function withClientSettings(connectionString: string, settings: ClientSettings = DEFAULT_CLIENT_SETTINGS): string {
  const trimmed = connectionString.trim().replace(/\/+$/, '');
  const queryAt = trimmed.indexOf('?');
  const base = queryAt < 0 ? trimmed : trimmed.slice(0, queryAt);
  const pairs = queryAt < 0 ? [] : trimmed.slice(queryAt + 1).split('&').filter((pair) => pair.length > 0);
  const kept = pairs.filter((pair) => flatKey(pair.split('=')[0]) !== 'throwonappendfailure');
  const present = new Set(kept.map((pair) => flatKey(pair.split('=')[0])));
  const added = (Object.keys(settings) as (keyof ClientSettings)[])
    .filter((key) => !present.has(flatKey(key)))
    .map((key) => `${key}=${settings[key]}`);
  return `${base}?${[...kept, ...added, 'throwOnAppendFailure=true'].join('&')}`;
}
