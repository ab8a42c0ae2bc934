import { RecordedEvent } from './event-store.port';
import { Job } from './job-queue.port';

/** The trigger side of a process manager: the durable jobs an event calls for. Pure. */
export interface Reaction {
  readonly handles: ReadonlySet<string>;
  jobsFor(event: RecordedEvent): Job[];
}
