/** Durable work: survives restarts and runs once when several processes share the database. */
export interface Job {
  /** Deterministic, so scheduling the same work twice keeps one job. */
  id: string;
  kind: string;
  dueAt: Date;
  payload: Record<string, unknown>;
}

export interface JobQueue {
  schedule(job: Job): Promise<void>;
}

/** What a job's run says beyond "done". */
export interface JobRunResult {
  /** Jobs this run made pointless (they would find nothing to do): marked done with it, unless a worker holds one already. */
  supersedes?: string[];
}

/** Does one kind of job. Throwing makes the queue retry later; handlers must be idempotent. */
export interface JobHandler {
  readonly kind: string;
  // eslint-disable-next-line @typescript-eslint/no-invalid-void-type -- most handlers return nothing; a few a result
  run(job: Job, attempt: number): Promise<void | JobRunResult>;
}

export const JOB_QUEUE = Symbol('JobQueue');
export const JOB_HANDLERS = Symbol('JobHandlers');
