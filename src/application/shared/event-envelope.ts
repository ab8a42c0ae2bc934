import { Actor } from '../../domain/shared/actor';
import { Environment } from '../../domain/shared/environment';
import { LogEvent } from '../../domain/log-events';
import { LOG_EVENT_SCHEMA, schemaVersionIn } from '../ports/event-decoder.port';
import { EventMetadata, NewEvent } from '../ports/event-store.port';
import { currentOriginTraceparent, currentTraceparent } from '../ports/trace-context.port';

/** A domain event ready to append: its id, metadata and the schema version its type is written at (LOG_EVENT_SCHEMA). */
export function envelope<Event extends LogEvent>(
  event: Event,
  eventId: string,
  metadata: EventMetadata,
): NewEvent<Event> {
  return {
    ...event,
    eventId,
    schemaVersion: schemaVersionIn(LOG_EVENT_SCHEMA, event.type),
    metadata,
  };
}

export function metadata(fields: {
  partnerId: string | null;
  environment: Environment | null;
  correlationId: string;
  causationId?: string | null;
  actor: Actor;
  at: Date;
}): EventMetadata {
  const traceparent = currentTraceparent();
  const originTraceparent = traceparent ? currentOriginTraceparent() : undefined;
  return {
    partnerId: fields.partnerId,
    environment: fields.environment,
    correlationId: fields.correlationId,
    causationId: fields.causationId ?? null,
    actor: fields.actor,
    occurredAt: fields.at.toISOString(),
    ...(traceparent ? { traceparent } : {}),
    ...(originTraceparent && originTraceparent !== traceparent ? { originTraceparent } : {}),
  };
}
