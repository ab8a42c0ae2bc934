import { RecordedEvent } from '../ports/event-store.port';
import { EventsByCorrelation } from '../ports/events-by-correlation.port';

/** The event stored under a fixed id, found among those of its correlation id (null when it was never stored). */
export async function storedEvent(
  store: EventsByCorrelation,
  correlationId: string,
  eventId: string,
): Promise<RecordedEvent | null> {
  return (await store.readByCorrelationId(correlationId)).find((event) => event.eventId === eventId) ?? null;
}
