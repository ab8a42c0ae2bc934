import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { EventMetadata, HistoricalEvent } from '../../application/ports/event-store.port';
import { hasEventMetadataFields } from '../event-store/stored-metadata';

/** The export format: one JSON object per line, in global order, snake_case fields; `data` and `metadata` as stored. */
interface HistoryLine {
  stream: string;
  revision: number;
  event_id: string;
  type: string;
  schema_version: number;
  data: Record<string, unknown>;
  metadata: EventMetadata;
  recorded_at: string;
}

export const historyLine = (event: HistoricalEvent): string =>
  JSON.stringify({
    stream: event.streamId,
    revision: event.revision,
    event_id: event.eventId,
    type: event.type,
    schema_version: event.schemaVersion,
    data: event.data,
    metadata: event.metadata,
    recorded_at: event.recordedAt,
  } satisfies HistoryLine);

class HistoryFileError extends Error {
  constructor(file: string, line: number, problem: string) {
    super(`${file}, line ${line}: ${problem}`);
    this.name = 'HistoryFileError';
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function parseHistoryLine(text: string): HistoricalEvent | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return 'not a JSON object';
  }
  if (!isObject(value)) return 'not a JSON object';
  const {
    stream,
    revision,
    event_id: eventId,
    type,
    schema_version: schemaVersion,
    data,
    metadata,
    recorded_at: recordedAt,
  } = value;
  if (typeof stream !== 'string' || stream === '') return 'stream must be a non-empty string';
  if (typeof revision !== 'number' || !Number.isSafeInteger(revision) || revision < 0)
    return 'revision must be a whole number, 0 or more';
  if (typeof eventId !== 'string' || !UUID.test(eventId)) return 'event_id must be a UUID';
  if (typeof type !== 'string' || type === '') return 'type must be a non-empty string';
  if (typeof schemaVersion !== 'number' || !Number.isSafeInteger(schemaVersion))
    return 'schema_version must be a whole number';
  if (!isObject(data)) return 'data must be a JSON object';
  if (!isObject(metadata) || !hasEventMetadataFields(metadata)) {
    return 'metadata must be an object with correlationId, occurredAt and actor';
  }
  if (typeof recordedAt !== 'string' || Number.isNaN(Date.parse(recordedAt))) return 'recorded_at must be a time';
  return {
    streamId: stream,
    revision,
    eventId: eventId.toLowerCase(),
    type,
    schemaVersion,
    data,
    metadata,
    recordedAt: new Date(recordedAt).toISOString(),
  };
}

export async function* readHistoryFile(file: string): AsyncGenerator<HistoricalEvent> {
  const lines = createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity });
  let number = 0;
  for await (const text of lines) {
    number++;
    if (text.trim() === '') continue;
    const parsed = parseHistoryLine(text);
    if (typeof parsed === 'string') throw new HistoryFileError(file, number, parsed);
    yield parsed;
  }
}

/** Reads the whole file before anything is imported, so a bad line fails the import before any write; returns the event count. */
export async function checkHistoryFile(file: string): Promise<number> {
  let count = 0;
  for await (const event of readHistoryFile(file)) if (event) count++;
  return count;
}
