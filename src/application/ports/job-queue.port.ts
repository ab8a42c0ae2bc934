import { tableHolds } from '../../domain/shared/event-types';
import { JOB_KIND_NAMES, JobKind, JobPayloads } from './job-payloads';

export { JobKind, JobPayloads } from './job-payloads';

/** Durable work of one kind: survives restarts and runs once when several processes share the database. */
export interface JobOfKind<Kind extends JobKind> {
  /** Deterministic, so scheduling the same work twice keeps one job. */
  id: string;
  kind: Kind;
  dueAt: Date;
  payload: JobPayloads[Kind];
}

/** A job of one of `Kind` (all kinds unless given): one member per kind, so `kind` narrows `payload`. */
export type Job<Kind extends JobKind = JobKind> = Kind extends JobKind ? JobOfKind<Kind> : never;

/** A job as the queue stores it: its payload as JSON, whatever its kind (the queue adds keys of its own to it). */
export interface StoredJob extends Omit<JobOfKind<JobKind>, 'kind' | 'payload'> {
  kind: string;
  payload: Readonly<Record<string, unknown>>;
}

/** The job as the queue stores it. */
export const storedJobOf = (job: Job): StoredJob => ({ ...job, payload: { ...job.payload } });

/** A stored job of a kind this release knows, as that kind's job (its payload is the one that kind was scheduled with). */
export const isKnownJob = (job: Pick<StoredJob, 'kind'> & { payload: object }): job is Job =>
  tableHolds(JOB_KIND_NAMES, job.kind);

export interface JobQueue {
  schedule<Kind extends JobKind>(job: Job<Kind>): Promise<void>;
}

/** What a job's run says beyond "done". */
export interface JobRunResult {
  /** Jobs this run made pointless (they would find nothing to do): marked done with it, unless a worker holds one already. */
  supersedes?: string[];
}

/** Does one kind of job. Throwing makes the queue retry later; handlers must be idempotent. */
export interface JobHandler<Kind extends JobKind = JobKind> {
  readonly kind: Kind;
  // eslint-disable-next-line @typescript-eslint/no-invalid-void-type -- most handlers return nothing; a few a result
  run(job: Job<Kind>, attempt: number): Promise<void | JobRunResult>;
}

export const JOB_QUEUE = Symbol('JobQueue');
export const JOB_HANDLERS = Symbol('JobHandlers');
