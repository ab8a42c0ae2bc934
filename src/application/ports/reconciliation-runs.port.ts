import { FindingKind } from '../../domain/reconciliation/reconciliation';

/** What started a run: the daily schedule, a day judged again while it had orders in doubt, or an operator. */
export type ReconciliationTrigger = 'scheduled' | 'in_doubt' | 'operator';

export type MismatchKind = Exclude<FindingKind, 'matched'>;

/** One mismatch a run found, as the console lists it. */
export interface RunMismatch {
  kind: MismatchKind;
  orderId: string;
  detail: string;
  /** Recorded as a finding by this run; false when an earlier run (or settlement) recorded it. */
  recorded: boolean;
}

/** The summary of one reconciliation of one provider's day: what was judged, found and recorded, or why it failed. */
export interface ReconciliationRun {
  provider: string;
  /** The UTC day judged. */
  date: string;
  trigger: ReconciliationTrigger;
  /** Who ran it: the operator's name, or `reconciliation` for the schedule. */
  actor: string;
  /** The job that ran it; null for an operator's run. */
  jobId: string | null;
  /** The job's attempt (a failed run is retried by the queue); null for an operator's run. */
  attempt: number | null;
  startedAt: Date;
  finishedAt: Date;
  /** Null when the run succeeded; otherwise why it failed (the report could not be read, a date did not read...). */
  error: string | null;
  /** False for a day that is not over (an operator's run of today): nothing is recorded. */
  complete: boolean;
  /** Findings by kind; all zero when the run failed. */
  counts: Record<FindingKind, number>;
  /** Findings recorded by this run (found for the first time). */
  recorded: number;
  /** Our orders of the day still open (initiated, pending or held) as the run saw them; null when it failed. */
  openOrders: number | null;
  /** The mismatches found, at most RUN_MISMATCHES_KEPT of them (the counts have them all). */
  mismatches: RunMismatch[];
}

/** How many mismatches a run keeps in its summary; the findings themselves are all in the log. */
export const RUN_MISMATCHES_KEPT = 100;

export interface RecordedReconciliationRun extends ReconciliationRun {
  /** Increasing in the order the runs were recorded. */
  runId: string;
}

/**
 * The summaries of reconciliation runs (decision 0123): rows beside
 * the log, inserted when a run ends, never changed; the findings themselves are events of the log.
 */
export interface ReconciliationRuns {
  record(run: ReconciliationRun): Promise<void>;
  /** Newest first, at most `limit`; of one provider when given, of one UTC day (YYYY-MM-DD) when given. */
  recent(provider: string | null, limit: number, day?: string): Promise<RecordedReconciliationRun[]>;
}

export const RECONCILIATION_RUNS = Symbol('ReconciliationRuns');

/** What reconciliation counts for Prometheus: each mismatch once, when it is recorded, and every run's end. */
export interface ReconciliationMetrics {
  mismatchRecorded(provider: string, kind: MismatchKind): void;
  runEnded(provider: string, trigger: ReconciliationTrigger, outcome: 'succeeded' | 'failed'): void;
}

export const RECONCILIATION_METRICS = Symbol('ReconciliationMetrics');
