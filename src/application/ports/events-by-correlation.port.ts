import { LogEvent } from '../../domain/log-events';
import { DomainEvent, RecordedEvent } from './event-store.port';

/**
 * The log indexed by each event's correlation id (an order's id): an order's whole history across its streams,
 * and the event stored under a deterministic id among them. Bound to the same adapter as the EventStore.
 */
export interface EventsByCorrelation<Event extends DomainEvent = LogEvent> {
  /** Every event whose metadata carries this correlation id, from any stream, in global order. */
  readByCorrelationId(correlationId: string): Promise<RecordedEvent<Event>[]>;
}

export const EVENTS_BY_CORRELATION = Symbol('EventsByCorrelation');
