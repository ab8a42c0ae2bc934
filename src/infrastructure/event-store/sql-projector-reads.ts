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
 * this process appended when it holds them all, or read as rows when it does not (another process's appends, a
 * restart, a projector far behind). Either way the events are those a plain read returns.
 */
export class SqlProjectorReads<Event extends DomainEvent> implements Pick<EventStore<Event>, 'readAll'> {
  constructor(
    private readonly projector: string,
    private readonly recent: RecentAppends<Event>,
    private readonly reads: SqlEventReads<Event>,
  ) {}

  async readAll(after: GlobalPosition | null, options: ReadAllOptions): Promise<RecordedEvent<Event>[]> {
    this.recent.readerAt(this.projector, after);
    if (options.eventTypes || this.recent.size === 0) return this.reads.readAll(after, options);
    const positions = await this.reads.readAllPositions(after, options.maxCount);
    if (positions.length === 0) return [];
    return this.recent.at(positions) ?? this.reads.readAll(after, options);
  }
}
