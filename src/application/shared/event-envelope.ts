import { Actor } from '../../domain/shared/actor';
import { Environment } from '../../domain/shared/environment';
import { EventMetadata, NewEvent, RecordedEvent } from '../ports/event-store.port';
import { currentOriginTraceparent, currentTraceparent } from '../ports/trace-context.port';

/** Schema version of each event type; bump it when a type's data changes shape. */
export const SCHEMA_VERSIONS: Record<string, number> = {};
const schemaVersionOf = (type: string): number => SCHEMA_VERSIONS[type] ?? 1;

export interface DomainEventShape {
  type: string;
  data: object;
}

export function envelope(event: DomainEventShape, eventId: string, metadata: EventMetadata): NewEvent {
  return { eventId, type: event.type, schemaVersion: schemaVersionOf(event.type), data: { ...event.data }, metadata };
}

/** The typed domain event inside a recorded one; the stream it was read from fixes its union. */
// eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- the caller names the stream's event union
export const domainEventOf = <Event extends DomainEventShape>(recorded: RecordedEvent): Event =>
  ({ type: recorded.type, data: recorded.data }) as unknown as Event;

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
