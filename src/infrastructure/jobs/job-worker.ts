import { Clock } from '../../application/ports/clock.port';
import { JobHandler, StoredJob, isKnownJob } from '../../application/ports/job-queue.port';
import { SqlDatabase } from '../sql/sql-database';
import { StatementBatcher } from '../sql/statement-batcher';
import { jobSpan } from '../tracing/background-spans';
import { traced } from '../tracing/tracing';
import { ProviderUnavailableError } from '../../application/ports/provider-gateway.port';

interface ClaimedRow {
  job_id: string;
  kind: string;
  payload: Record<string, unknown>;
  due_at: Date | string;
  attempts: number;
}

interface Completion {
  jobId: string;
  attempts: number;
  doneAt: string;
  supersedes: readonly string[];
}

interface JobWorkerOptions {
  leaseMs: number;
  pollIntervalMs: number;
  concurrency?: number;
  retryDelayMs(attempt: number): number;
  onError(error: unknown, job: StoredJob): void;
}

/** Runs due jobs, each claimed by one worker across processes and leased; a dead worker's job runs again, so handlers are idempotent. */
export class JobWorker {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<number> | null = null;
  private stopped = false;
  private rerun = false;
  private wake: (() => void) | null = null;
  private readonly handlers: Map<string, JobHandler>;
  private readonly completions = new StatementBatcher<Completion, void>((done) => this.markDone(done), {
    concurrency: 2,
    maxBatch: 256,
    gatherTurn: true,
  });

  constructor(
    private readonly db: SqlDatabase,
    handlers: readonly JobHandler[],
    private readonly clock: Clock,
    private readonly options: JobWorkerOptions,
  ) {
    this.handlers = new Map(handlers.map((handler) => [handler.kind, handler]));
  }

  start(): void {
    if (this.options.pollIntervalMs > 0) this.timer = setInterval(() => this.kick(), this.options.pollIntervalMs);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.running?.catch(() => undefined);
  }

  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.askToLookAgain();
      return;
    }
    this.runDue().catch(() => undefined);
  }

  runDue(): Promise<number> {
    if (this.running) {
      this.askToLookAgain();
      return this.running;
    }
    this.running = this.drain().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private askToLookAgain(): void {
    this.rerun = true;
    this.wake?.();
  }

  /** Keeps up to `concurrency` jobs running, claiming to fill free places in one statement; a slow job holds one place only. */
  private async drain(): Promise<number> {
    const limit = this.options.concurrency ?? 1;
    const running = new Set<Promise<void>>();
    let count = 0;
    do {
      this.rerun = false;
      // A claim that got fewer jobs than it asked for took every job then due: the next claim waits
      // for a kick (new work scheduled) or the poll, instead of asking again as each job ends.
      let mayFindMore = true;
      for (;;) {
        if (this.rerun) {
          this.rerun = false;
          mayFindMore = true;
        }
        // Claimed in groups: once half the places are free (or none is taken), not at every single one.
        const room = limit - running.size;
        const claims: boolean = !this.stopped && mayFindMore && !(running.size > 0 && room < Math.ceil(limit / 2));
        const claimed: ClaimedRow[] = claims ? await this.claim(room) : [];
        if (claims) mayFindMore = claimed.length === room;
        for (const row of claimed) {
          const run: Promise<void> = this.execute(row)
            .catch((error: unknown) => this.options.onError(error, jobOf(row)))
            .finally(() => running.delete(run));
          running.add(run);
        }
        count += claimed.length;
        if (running.size === 0) break;
        // Full, or nothing more due for now: a job that ends makes room, and may have scheduled another.
        // A kick (new work, or the poll) wakes the wait as well: a job that hangs (a webhook receiver
        // that never answers) must not hold back work scheduled meanwhile until it times out.
        if (running.size > limit - Math.ceil(limit / 2) || claimed.length === 0) {
          await Promise.race([...running, new Promise<void>((resolve) => (this.wake = resolve))]);
          this.wake = null;
        }
      }
    } while (this.rerun && !this.stopped);
    return count;
  }

  private async claim(room: number): Promise<ClaimedRow[]> {
    if (room <= 0) return [];
    const now = this.clock.now();
    return this.db.query<ClaimedRow>(
      `UPDATE jobs SET locked_until = $2, attempts = attempts + 1
        WHERE job_id IN (
          SELECT job_id FROM jobs
           WHERE done_at IS NULL AND due_at <= $1 AND (locked_until IS NULL OR locked_until <= $1)
           ORDER BY due_at, job_id
           LIMIT $3
           FOR UPDATE SKIP LOCKED)
        RETURNING job_id, kind, payload, due_at, attempts`,
      [now.toISOString(), new Date(now.getTime() + this.options.leaseMs).toISOString(), room],
    );
  }

  private async execute(row: ClaimedRow): Promise<void> {
    const job = jobOf(row);
    const handler = this.handlers.get(job.kind);
    try {
      // Where a stored job becomes a job of its kind: a kind with a handler is one this release knows.
      if (!handler || !isKnownJob(job)) throw new Error(`no handler for job kind ${job.kind}`);
      const known = job;
      const result = await traced(
        `job ${job.kind}`,
        () => handler.run(known, row.attempts),
        () => jobSpan(job, row.attempts),
      );
      await this.completions.submit({
        jobId: job.id,
        attempts: row.attempts,
        doneAt: this.clock.now().toISOString(),
        supersedes: result?.supersedes ?? [],
      });
    } catch (error) {
      this.options.onError(error, job);
      // A provider that asked to be left alone for a while (a 429's Retry-After) is not asked again before then.
      const askedToWaitMs = error instanceof ProviderUnavailableError ? (error.retryAfterMs ?? 0) : 0;
      const retryAt = new Date(
        this.clock.now().getTime() + Math.max(this.options.retryDelayMs(row.attempts), askedToWaitMs),
      );
      await this.db.query(
        'UPDATE jobs SET due_at = $2, locked_until = NULL, last_error = $3 WHERE job_id = $1 AND attempts = $4',
        [job.id, retryAt.toISOString(), error instanceof Error ? error.message : String(error), row.attempts],
      );
    }
  }

  /**
   * Fenced by each claim's attempt number: a run whose lease expired and was claimed again
   * changes nothing. Superseded jobs are done in the same statement, unless one is held by a
   * worker at that moment (it then runs and finds nothing to do).
   */
  // eslint-disable-next-line @typescript-eslint/no-invalid-void-type -- the batcher hands each caller its (empty) result
  private async markDone(done: readonly Completion[]): Promise<void[]> {
    const superseded = done.flatMap((item) => item.supersedes.map((jobId) => ({ jobId, doneAt: item.doneAt })));
    await this.db.query(
      `WITH finished AS (
         UPDATE jobs SET done_at = v.done_at, locked_until = NULL, last_error = NULL
           FROM unnest($1::text[], $2::integer[], $3::timestamptz[]) AS v(job_id, attempts, done_at)
          WHERE jobs.job_id = v.job_id AND jobs.attempts = v.attempts
       )
       UPDATE jobs SET done_at = s.done_at
         FROM unnest($4::text[], $5::timestamptz[]) AS s(job_id, done_at)
        WHERE jobs.job_id = s.job_id AND jobs.done_at IS NULL AND (jobs.locked_until IS NULL OR jobs.locked_until <= s.done_at)
          AND jobs.job_id <> ALL($1::text[])`,
      [
        done.map((item) => item.jobId),
        done.map((item) => item.attempts),
        done.map((item) => item.doneAt),
        superseded.map((item) => item.jobId),
        superseded.map((item) => item.doneAt),
      ],
    );
    return done.map(() => undefined);
  }
}

const jobOf = (row: ClaimedRow): StoredJob => ({
  id: row.job_id,
  kind: row.kind,
  payload: row.payload,
  dueAt: new Date(row.due_at),
});
