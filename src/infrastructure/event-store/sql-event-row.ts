import { EventMetadata } from '../../application/ports/event-store.port';

/** A row of es_events as the SQL event store (and the reader of older PGlite folders) selects it. */
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
