import { DomainEvent, NewEvent } from '../../application/ports/event-store.port';
import { SpanDescription } from './tracing';

/**
 * An append's span: its streams and event types (never the events' data). Appends gathered into
 * one statement with other requests' appends (the hot wallet's batching) link to each event's own
 * trace, so a request's debit can be found from the statement that wrote it and back.
 */
export function appendSpan(
  appends: readonly { streamId: string; events: readonly NewEvent<DomainEvent>[] }[],
): SpanDescription {
  const events = appends.flatMap((append) => append.events);
  return {
    kind: 'client',
    attributes: {
      'db.system.name': 'partner-service.event-store',
      'event.streams': [...new Set(appends.map((append) => append.streamId))].join(' ').slice(0, 500),
      'event.types': [...new Set(events.map((event) => event.type))].join(' '),
      'event.count': events.length,
    },
    links: events.length > 1 ? events.map((event) => event.metadata.traceparent) : [],
  };
}
