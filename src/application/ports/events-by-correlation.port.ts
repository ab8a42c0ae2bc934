import { LogEvent } from '../../domain/log-events';
import { DomainEvent, RecordedEvent } from './event-store.port';

/**
 * An index of the log by the correlation id in each event's metadata (an order's id): an order's whole history
 * across its streams (the debit and refund in the wallet's, its own stream, what reconciliation found), and the
 * event stored under a deterministic id among them. Bound to the same adapter as the EventStore (the SQL stores
 * query their events table; EventStoreDB keeps an index stream per correlation id).
 */
export interface EventsByCorrelation<Event extends DomainEvent = LogEvent> {
  /** Every event whose metadata carries this correlation id, from any stream, in global order. */
  readByCorrelationId(correlationId: string): Promise<RecordedEvent<Event>[]>;
}

export const EVENTS_BY_CORRELATION = Symbol('EventsByCorrelation');
