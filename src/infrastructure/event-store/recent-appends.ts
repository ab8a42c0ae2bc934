import { DomainEvent, GlobalPosition, RecordedEvent, comparePositions } from '../../application/ports/event-store.port';

/** Far more than the projectors lag behind in normal running; beyond it they read the events back. */
const DEFAULT_CAPACITY = 10_000;
/** Readers that have not read for this long (a barrier in a process whose projectors run elsewhere) are not waited for. */
const IDLE_READERS_AFTER_MS = 5_000;

/**
 * The events this process has just appended, as the log holds them, kept until every projector reading through it has
 * applied them: a projector then reads back only the positions of the events it is to apply, not their rows.
 * Nothing is kept while no projector has read through it lately (a process that only serves requests, a command, a
 * request thread whose projectors run in a worker and read here only when a back-office command waits for them).
 */
export class RecentAppends<Event extends DomainEvent> {
  /** By global position, unique in the log; in the order the appends returned, which is nearly the log's order. */
  private readonly kept = new Map<bigint, RecordedEvent<Event>>();
  /** What each reader has applied so far (`null`: nothing yet). */
  private readonly applied = new Map<string, GlobalPosition | null>();
  private lastReadAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly capacity = DEFAULT_CAPACITY,
    private readonly now: () => number = () => performance.now(),
  ) {}

  get size(): number {
    return this.kept.size;
  }

  /** Whether a reader has read through it lately, so that appends are worth keeping. */
  get wanted(): boolean {
    return this.applied.size > 0 && this.now() - this.lastReadAt < IDLE_READERS_AFTER_MS;
  }

  remember(events: readonly RecordedEvent<Event>[]): void {
    if (!this.wanted) {
      this.kept.clear();
      return;
    }
    for (const event of events) this.kept.set(event.position.prepare, event);
    for (const oldest of this.kept.keys()) {
      if (this.kept.size <= this.capacity) break;
      this.kept.delete(oldest);
    }
  }

  /** The kept event at each position, `undefined` where it is not kept. */
  at(positions: readonly GlobalPosition[]): (RecordedEvent<Event> | undefined)[] {
    return positions.map((position) => {
      const event = this.kept.get(position.prepare);
      return event && event.position.commit === position.commit ? event : undefined;
    });
  }

  /** A reader has applied the log up to `position`; what every reader has applied is let go. */
  readerAt(reader: string, position: GlobalPosition | null): void {
    this.lastReadAt = this.now();
    this.applied.set(reader, position);
    const behind = this.slowestReader();
    if (!behind) return;
    for (const [key, event] of this.kept) {
      // Appends that committed out of their positions' order stay until the capacity drops them.
      if (comparePositions(event.position, behind) > 0) break;
      this.kept.delete(key);
    }
  }

  private slowestReader(): GlobalPosition | null {
    let slowest: GlobalPosition | null = null;
    for (const position of this.applied.values()) {
      if (position === null) return null;
      if (slowest === null || comparePositions(position, slowest) < 0) slowest = position;
    }
    return slowest;
  }
}
