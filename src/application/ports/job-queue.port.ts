import { DebitMovement } from '../../domain/wallet/low-balance';

/** Durable work: survives restarts and runs once when several processes share the database. */
export interface Job {
  /** Deterministic, so scheduling the same work twice keeps one job. */
  id: string;
  kind: string;
  dueAt: Date;
  payload: Record<string, unknown>;
  /**
   * Scheduled only if this partner has a webhook URL in the environment when the event is
   * processed: a delivery to no one would be a job that only finds out there is nothing to do.
   */
  onlyIfWebhookUrl?: { partnerId: string; environment: string };
  /**
   * Scheduled only if this debit took the wallet's balance below the partner's low-balance
   * threshold as set when the event is processed; the threshold is then added to the payload.
   */
  onlyIfCrossesBelow?: DebitMovement & { partnerId: string; environment: string };
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
