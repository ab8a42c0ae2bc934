import {
  DomainEvent,
  EventStore,
  GlobalPosition,
  ReadAllOptions,
  RecordedEvent,
} from '../../application/ports/event-store.port';
import { RecentAppends } from './recent-appends';
import { SqlEventReads } from './sql-reads';

/**
 * A projector's reads of the SQL log: the positions of the events it is to apply, then the events themselves from what
 * this process appended, and the rows of the others (another process's appends, a restart, a projector far behind);
 * a page of which nothing is kept is read as before. Either way the events are those a plain read returns.
 */
export class SqlProjectorReads<Event extends DomainEvent> implements Pick<EventStore<Event>, 'readAll'> {
  constructor(
    private readonly recent: RecentAppends<Event>,
    private readonly reads: SqlEventReads<Event>,
  ) {}

  async readAll(after: GlobalPosition | null, options: ReadAllOptions): Promise<RecordedEvent<Event>[]> {
    if (options.eventTypes || this.recent.size === 0) return this.reads.readAll(after, options);
    const positions = await this.reads.readAllPositions(after, options.maxCount);
    const kept = this.recent.at(positions);
    const missing = positions.filter((_, index) => kept[index] === undefined);
    if (missing.length === 0) return kept as RecordedEvent<Event>[];
    if (missing.length === positions.length) return this.reads.readAll(after, options);
    const read = await this.reads.readAt(missing);
    if (read.length !== missing.length) return this.reads.readAll(after, options);
    let next = 0;
    return kept.map((event) => event ?? read[next++]);
  }
}
