import { LogEvent } from '../../domain/log-events';
import { RecordedEvent } from '../ports/event-store.port';
import { Job } from '../ports/job-queue.port';

/** The trigger side of a process manager: the durable jobs an event calls for. Pure. Given only the events it `handles`. */
export interface Reaction<Handled extends LogEvent = LogEvent> {
  readonly handles: ReadonlySet<Handled['type']>;
  jobsFor(event: RecordedEvent<Handled>): Job[];
}
