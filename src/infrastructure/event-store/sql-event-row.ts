import {
  EventMetadata,
  GlobalPosition,
  HistoricalEvent,
  RecordedEvent,
  UntypedEvent,
} from '../../application/ports/event-store.port';

export interface EventRow {
  global_position: string;
  transaction_id: string;
  event_id: string;
  stream_id: string;
  stream_revision: string;
  event_type: string;
  schema_version: number;
  data: Record<string, unknown>;
  metadata: EventMetadata;
  recorded_at: Date | string;
}

export const EVENT_COLUMNS = `global_position::text AS global_position, transaction_id::text AS transaction_id, event_id::text AS event_id,
  stream_id, stream_revision::text AS stream_revision, event_type, schema_version, data, metadata, recorded_at`;

/** A row's place in the log, from its transaction id and sequence number as text. */
export const positionOf = (row: Pick<EventRow, 'transaction_id' | 'global_position'>): GlobalPosition => ({
  commit: BigInt(row.transaction_id),
  prepare: BigInt(row.global_position),
});

export function recordedOf(row: EventRow): RecordedEvent<UntypedEvent> {
  return { ...historicalOf(row), position: positionOf(row) };
}

export function historicalOf(row: EventRow): HistoricalEvent {
  return {
    eventId: row.event_id,
    streamId: row.stream_id,
    revision: Number(row.stream_revision),
    type: row.event_type,
    schemaVersion: row.schema_version,
    data: row.data,
    metadata: row.metadata,
    recordedAt: new Date(row.recorded_at).toISOString(),
  };
}
