import { RecordedEvent } from '../../application/ports/event-store.port';
import { StoredJob } from '../../application/ports/job-queue.port';
import { SpanDescription } from './tracing';

/** The key of a job's payload that keeps the trace context of the work that scheduled it. */
export const TRACE_LINKS_KEY = 'traceLinks';

/** A projection run is a new trace, linked to the traces of the events it applied (32 links at most). */
export function projectionRunSpan(name: string, events: readonly RecordedEvent[]): SpanDescription {
  return {
    root: true,
    attributes: { 'projection.name': name, 'projection.events': events.length },
    links: events.map((event) => event.metadata.traceparent),
  };
}

/** A job is a new trace, linked through the trace context in its payload to the work that scheduled it. */
export function jobSpan(job: StoredJob, attempt: number): SpanDescription {
  const orderId = job.payload.orderId;
  return {
    root: true,
    kind: 'consumer',
    attributes: {
      'job.kind': job.kind,
      'job.id': job.id,
      'job.attempt': attempt,
      ...(typeof orderId === 'string' ? { 'order.id': orderId } : {}),
    },
    links: traceLinksOf(job.payload),
  };
}

function traceLinksOf(payload: Readonly<Record<string, unknown>>): string[] {
  const links = payload[TRACE_LINKS_KEY];
  return Array.isArray(links) ? links.filter((link): link is string => typeof link === 'string') : [];
}

/** A job's trace links: the order's placing request first, then the work that appended the event; none without tracing. */
export function traceLinksForEvent(event: RecordedEvent): string[] {
  const { traceparent, originTraceparent } = event.metadata;
  if (!traceparent) return [];
  return originTraceparent && originTraceparent !== traceparent ? [originTraceparent, traceparent] : [traceparent];
}
