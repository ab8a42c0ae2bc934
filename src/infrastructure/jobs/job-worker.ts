import { Clock } from '../../application/ports/clock.port';
import { Job, JobHandler } from '../../application/ports/job-queue.port';
import { SqlDatabase } from '../sql/sql-database';

interface ClaimedRow {
  job_id: string;
  kind: string;
  payload: { [key: string]: unknown };
  due_at: Date | string;
  attempts: number;
}

export interface JobWorkerOptions {
  /** How long a claimed job stays invisible to other workers. */
  leaseMs: number;
  pollIntervalMs: number;
  /** Jobs run at once by this worker (each claimed on its own; handlers are independent). */
  concurrency?: number;
  /** Delay before retrying a job whose handler threw, by attempt number. */
  retryDelayMs(attempt: number): number;
  onError(error: unknown, job: Job): void;
}

/**
 * Runs due jobs. A job is claimed by one worker at a time across all processes
 * (UPDATE ... FOR UPDATE SKIP LOCKED) and leased; a worker that dies leaves the lease
 * to expire and the job runs again, so handlers are idempotent. Time is the injected clock's.
 */
export class JobWorker {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<number> | null = null;
  private stopped = false;
  private rerun = false;
  private readonly handlers: Map<string, JobHandler>;

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
    this.runDue().catch(() => undefined);
  }

  /** Runs every job due now, `concurrency` at a time; concurrent callers share the run. Returns the count run. */
  runDue(): Promise<number> {
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
    let count = 0;
    const runner = async (): Promise<void> => {
      for (let claimed = await this.claim(); claimed; claimed = this.stopped ? null : await this.claim()) {
        await this.execute(claimed);
        count += 1;
      }
    };
    do {
      this.rerun = false;
      await Promise.all(Array.from({ length: this.options.concurrency ?? 1 }, runner));
    } while (this.rerun && !this.stopped);
    return count;
  }

  private async claim(): Promise<ClaimedRow | null> {
    const now = this.clock.now();
    const rows = await this.db.query<ClaimedRow>(
      `UPDATE jobs SET locked_until = $2, attempts = attempts + 1
        WHERE job_id = (
          SELECT job_id FROM jobs
           WHERE done_at IS NULL AND due_at <= $1 AND (locked_until IS NULL OR locked_until <= $1)
           ORDER BY due_at, job_id
           LIMIT 1
           FOR UPDATE SKIP LOCKED)
        RETURNING job_id, kind, payload, due_at, attempts`,
      [now.toISOString(), new Date(now.getTime() + this.options.leaseMs).toISOString()],
    );
    return rows[0] ?? null;
  }

  private async execute(row: ClaimedRow): Promise<void> {
    const job: Job = { id: row.job_id, kind: row.kind, payload: row.payload, dueAt: new Date(row.due_at) };
    const handler = this.handlers.get(job.kind);
    try {
      if (!handler) throw new Error(`no handler for job kind ${job.kind}`);
      await handler.run(job, row.attempts);
      // Fenced by the claim's attempt number: a run whose lease expired and was claimed again changes nothing.
      await this.db.query('UPDATE jobs SET done_at = $2, locked_until = NULL, last_error = NULL WHERE job_id = $1 AND attempts = $3', [
        job.id,
        this.clock.now().toISOString(),
        row.attempts,
      ]);
    } catch (error) {
      this.options.onError(error, job);
      const retryAt = new Date(this.clock.now().getTime() + this.options.retryDelayMs(row.attempts));
      await this.db.query('UPDATE jobs SET due_at = $2, locked_until = NULL, last_error = $3 WHERE job_id = $1 AND attempts = $4', [
        job.id,
        retryAt.toISOString(),
        error instanceof Error ? error.message : String(error),
        row.attempts,
      ]);
    }
  }
}
