import {
  ANY,
  AppendExpectedRevision,
  CurrentRevision,
  EventData,
  NO_STREAM,
  Position,
  RecordedEvent as EsdbRecordedEvent,
  STREAM_EXISTS,
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
} from '../../application/ports/event-store.port';
import { hasEventMetadataFields } from './stored-metadata';

/* Conversions between the port and @eventstore/db-client 6.x; `$`-prefixed metadata keys are ours to add and are dropped on read. */

const SCHEMA_VERSION_KEY = '$schemaVersion';
const ESDB_CORRELATION_ID_KEY = '$correlationId';
const ESDB_CAUSATION_ID_KEY = '$causationId';
/** Another store's recorded time of an imported event: EventStoreDB sets `created` itself, so reads report this. */
const RECORDED_AT_KEY = '$recordedAt';

export class EventStoreDbMappingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EventStoreDbMappingError';
  }
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

export function toImportedEventData(event: HistoricalEvent): EventData {
  if (Number.isNaN(Date.parse(event.recordedAt)))
    throw new EventStoreDbMappingError(`event ${event.eventId}: recorded time ${event.recordedAt} is not a time`);
  const data = toEventData(event);
  return {
    ...data,
    metadata: { ...(data.metadata as PlainObject), [RECORDED_AT_KEY]: new Date(event.recordedAt).toISOString() },
  };
}

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

/** An event's position in $all, or null when the server sent none (2^64-1 before 22.6, or protobuf's 0/0). */
export function logPosition(position: Position | undefined): GlobalPosition | null {
  if (!position) return null;
  if (position.commit === UNKNOWN_POSITION || position.prepare === UNKNOWN_POSITION) return null;
  if (position.commit === 0n && position.prepare === 0n) return null;
  return toGlobalPosition(position);
}

/** A stored event, still undecoded; its log position is required (stream reads carry it from EventStoreDB 22.6 on). */
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

function recordedAtOf(event: EsdbRecordedEvent): string {
  const imported = isPlainObject(event.metadata) ? event.metadata[RECORDED_AT_KEY] : undefined;
  return typeof imported === 'string' && !Number.isNaN(Date.parse(imported)) ? imported : event.created.toISOString();
}

function toEventMetadata(stored: PlainObject, where: string): EventMetadata {
  const ours: PlainObject = {};
  for (const [key, value] of Object.entries(stored)) if (!key.startsWith('$')) ours[key] = value;
  if (!hasEventMetadataFields(ours)) {
    throw new EventStoreDbMappingError(`${where}: metadata lacks correlationId, occurredAt or actor`);
  }
  return ours;
}

export const toGlobalPosition = (position: Position): GlobalPosition => ({
  commit: position.commit,
  prepare: position.prepare,
});

export const toEsdbPosition = (position: GlobalPosition): Position => ({
  commit: position.commit,
  prepare: position.prepare,
});

export const positionKey = (position: GlobalPosition | null): string =>
  position ? `${position.commit}/${position.prepare}` : 'start';

/** ESDB revisions are unsigned 64-bit; ours are JavaScript numbers. Both count a stream's first event as 0. */
export function fromEsdbRevision(revision: bigint): number {
  if (revision < 0n || revision > BigInt(Number.MAX_SAFE_INTEGER))
    throw new RangeError(`stream revision ${revision} is out of range`);
  return Number(revision);
}

export const fromEsdbCurrentRevision = (current: CurrentRevision): number | 'no_stream' =>
  current === NO_STREAM ? 'no_stream' : fromEsdbRevision(current);

/** The port's expected revision as the client's: -1 means no stream; anything else below 0 or fractional is refused. */
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

export const firstRevisionAfter = (expected: number): number => expected + 1;
