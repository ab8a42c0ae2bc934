import { DomainEvent, NewEvent } from '../../application/ports/event-store.port';
import { SpanDescription } from './tracing';

/** An append's span: streams and event types, never data; batched appends link to each event's own trace. */
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
