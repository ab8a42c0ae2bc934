import { EventData } from '@eventstore/db-client';

export const DEFAULT_MAX_APPEND_SIZE_BYTES = 1_048_576;

/** The size EventStoreDB counts against MaxAppendSize: data and metadata bytes as sent, plus two per character of the type. */
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
