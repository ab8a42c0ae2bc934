import { GlobalPosition, RecordedEvent, comparePositions } from '../../application/ports/event-store.port';
import { SqlDatabase } from '../sql/sql-database';
import { checkpoints, samePosition } from './checkpoint-store';
import { LogReader } from './shared-log-reads';
import { DeferredStatement, DeferredWrites } from './deferred-writes';
import { BatchScope, SqlProjection, applyEvents, plannedWrites, writesDeferrable } from './sql-projection';
import { projectionRunSpan } from '../tracing/background-spans';
import { traced } from '../tracing/tracing';

const CONTENDED_MS = 1000;
/**
 * How long after a lost race the checkpoint's moves are checked in a transaction (decision 0179): processes that race
 * once keep racing, and a window this long leaves PostgreSQL's log at most one error a minute per projector, while a
 * process that raced only during a restart's overlap goes back to the one statement soon after.
 */
const CHECKED_MS = 60_000;

/** Feeds the log to projections sharing one checkpoint; a batch applies only if no other process moved the checkpoint meanwhile. */
export class Projector {
  private running: Promise<number> | null = null;
  private rerun = false;
  private known: GlobalPosition | null = null;
  /** Until then another process is known to be moving this checkpoint: read it before reading events. */
  private contendedUntil = 0;
  /** Until then the checkpoint's moves run in a transaction that counts them instead of failing (decision 0179). */
  private checkedUntil = 0;
  private refresh = false;
  /** A batch moved the stored checkpoint from the position this process knew since the last poll (see refreshOnPoll). */
  private confirmedSincePoll = false;
  private committed: ((events: readonly RecordedEvent[], batch: BatchScope) => void) | null = null;

  constructor(
    readonly name: string,
    private readonly projections: readonly SqlProjection[],
    private readonly store: LogReader,
    private readonly db: SqlDatabase,
    private readonly batchSize = 500,
    /** Milliseconds of a clock that only moves forward; a test moves it by hand over CONTENDED_MS and CHECKED_MS. */
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Called with each committed batch and what its projections kept in its scope. */
  afterCommit(listener: (events: readonly RecordedEvent[], batch: BatchScope) => void): this {
    this.committed = listener;
    return this;
  }

  async start(): Promise<void> {
    await checkpoints.ensure(this.db, this.name);
    this.known = await checkpoints.read(this.db, this.name);
  }

  get position(): GlobalPosition | null {
    return this.known;
  }

  storedPosition(): Promise<GlobalPosition | null> {
    return checkpoints.read(this.db, this.name);
  }

  hasReached(position: GlobalPosition): boolean {
    return this.known !== null && comparePositions(this.known, position) >= 0;
  }

  refreshPosition(): void {
    this.refresh = true;
  }

  /**
   * The poll's look at the stored checkpoint, for progress another process made: not needed when a batch applied
   * since the last poll, whose move from the known position proved that position current. A process that moves
   * the checkpoint later still makes the next batch's move fail, and that batch reads the checkpoint again.
   */
  refreshOnPoll(): void {
    if (this.confirmedSincePoll) this.confirmedSincePoll = false;
    else this.refresh = true;
  }

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
        // A short batch read everything readable; an append since then has asked for a rerun.
        if (applied > 0 && applied < this.batchSize) break;
      }
    } while (this.rerun);
    return total;
  }

  /** Events applied, 0 when caught up, -1 when another process got there first. */
  private async applyOneBatch(): Promise<number> {
    if (this.refresh || this.now() < this.contendedUntil) {
      this.refresh = false;
      this.known = await checkpoints.read(this.db, this.name);
    }
    const from = this.known;
    const events = await this.store.readAll(from, { maxCount: this.batchSize });
    if (events.length === 0) return 0;
    const last = events[events.length - 1].position;
    const batch = new BatchScope();
    const outcome = await traced(
      `projection ${this.name}`,
      () => this.applied(events, from, last, batch),
      () => projectionRunSpan(this.name, events),
    );
    if (!outcome.applied) {
      if (samePosition(outcome.current, from))
        throw new Error(`checkpoint ${this.name} could not be moved (is its row missing?)`);
      this.known = outcome.current;
      this.contendedUntil = this.now() + CONTENDED_MS;
      this.checkedUntil = this.now() + CHECKED_MS;
      return -1;
    }
    this.known = last;
    this.confirmedSincePoll = true;
    this.committed?.(events, batch);
    return events.length;
  }

  private async applied(
    events: readonly RecordedEvent[],
    from: GlobalPosition | null,
    last: GlobalPosition,
    batch: BatchScope,
  ): Promise<BatchOutcome> {
    const writes = await plannedWrites(this.projections, events, this.db, batch);
    if (writes?.length === 0) return this.inOneStatement(from, last, []);
    if (!writes && writesDeferrable(this.projections, events)) {
      const deferred = new DeferredWrites(this.db);
      for (const projection of this.projections) await applyEvents(projection, events, deferred, batch);
      return this.inOneStatement(from, last, deferred.statements);
    }
    return this.db.transaction(async (tx): Promise<BatchOutcome> => {
      // Moving the checkpoint first checks and locks it in one statement; the batch is applied under that lock.
      if (!(await checkpoints.advance(tx, this.name, from, last)))
        return { applied: false, current: await checkpoints.read(tx, this.name) };
      if (writes) for (const write of writes) await write(tx);
      else for (const projection of this.projections) await applyEvents(projection, events, tx, batch);
      return { applied: true };
    });
  }

  /**
   * The checkpoint's move, checked against `from`, with the batch's deferred writes: the batch's one statement. While
   * another process is moving the checkpoint too (a race lost in the last CHECKED_MS), the statement runs in a
   * transaction that counts the move, so the races it loses are not errors in PostgreSQL's log.
   */
  private async inOneStatement(
    from: GlobalPosition | null,
    last: GlobalPosition,
    writes: readonly DeferredStatement[],
  ): Promise<BatchOutcome> {
    const contended = this.now() < this.checkedUntil;
    if (await checkpoints.advanceWith(this.db, this.name, from, last, writes, { contended })) return { applied: true };
    return { applied: false, current: await checkpoints.read(this.db, this.name) };
  }
}

type BatchOutcome = { applied: true } | { applied: false; current: GlobalPosition | null };
