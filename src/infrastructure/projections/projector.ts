import { EventStore, GlobalPosition, comparePositions } from '../../application/ports/event-store.port';
import { SqlDatabase } from '../sql/sql-database';
import { checkpoints, samePosition } from './checkpoint-store';
import { SqlProjection } from './sql-projection';

/**
 * Feeds events from the log to a group of SQL projections that share one checkpoint.
 * Events are read outside the write transaction (PGlite has one connection); the
 * transaction then locks the checkpoint row and applies the batch only if no other
 * process moved the checkpoint meanwhile, so any number of processes can run it.
 */
export class Projector {
  private running: Promise<number> | null = null;
  private rerun = false;
  private known: GlobalPosition | null = null;

  constructor(
    readonly name: string,
    private readonly projections: readonly SqlProjection[],
    private readonly store: EventStore,
    private readonly db: SqlDatabase,
    private readonly batchSize = 500,
  ) {}

  async start(): Promise<void> {
    await checkpoints.ensure(this.db, this.name);
    this.known = await checkpoints.read(this.db, this.name);
  }

  /** The checkpoint as this process last saw it. */
  get position(): GlobalPosition | null {
    return this.known;
  }

  hasReached(position: GlobalPosition): boolean {
    return this.known !== null && comparePositions(this.known, position) >= 0;
  }

  /** Applies every readable event; concurrent callers in this process share one run. */
  catchUp(): Promise<number> {
    if (this.running) {
      this.rerun = true;
      return this.running;
    }
    this.running = this.drain().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async drain(): Promise<number> {
    let total = 0;
    do {
      this.rerun = false;
      for (;;) {
        const applied = await this.applyOneBatch();
        if (applied === 0) break;
        total += Math.max(applied, 0);
      }
    } while (this.rerun);
    return total;
  }

  /** Returns the number of events applied, 0 when caught up, -1 when another process got there first. */
  private async applyOneBatch(): Promise<number> {
    const from = await checkpoints.read(this.db, this.name);
    this.known = from;
    const events = await this.store.readAll(from, { maxCount: this.batchSize });
    if (events.length === 0) return 0;
    const last = events[events.length - 1].position;
    const applied = await this.db.transaction(async (tx) => {
      const current = await checkpoints.read(tx, this.name, true);
      if (!samePosition(current, from)) return false;
      for (const event of events) {
        for (const projection of this.projections) {
          if (projection.handles.has(event.type)) await projection.apply(event, tx);
        }
      }
      await checkpoints.write(tx, this.name, last);
      return true;
    });
    if (applied) this.known = last;
    return applied ? events.length : -1;
  }
}
