import {
  DomainEvent,
  EventStore,
  GlobalPosition,
  ReadAllOptions,
  RecordedEvent,
} from '../../application/ports/event-store.port';
import { LogEvent } from '../../domain/log-events';

export type LogReader<Event extends DomainEvent = LogEvent> = Pick<EventStore<Event>, 'readAll'>;

/** The read-model and reactions projectors usually read the same page from the same checkpoint: it is read once for both. */
export class SharedLogReads<Event extends DomainEvent = LogEvent> implements LogReader<Event> {
  private kept: { page: string; events: RecordedEvent<Event>[] } | null = null;

  constructor(private readonly store: LogReader<Event>) {}

  async readAll(after: GlobalPosition | null, options: ReadAllOptions): Promise<RecordedEvent<Event>[]> {
    const page = pageOf(after, options);
    if (page !== null && this.kept?.page === page) {
      const { events } = this.kept;
      this.kept = null;
      return events;
    }
    const events = await this.store.readAll(after, options);
    this.kept = page !== null && events.length > 0 ? { page, events } : null;
    return events;
  }
}

const pageOf = (after: GlobalPosition | null, options: ReadAllOptions): string | null =>
  options.eventTypes ? null : `${after ? `${after.commit}/${after.prepare}` : 'start'}:${options.maxCount}`;
