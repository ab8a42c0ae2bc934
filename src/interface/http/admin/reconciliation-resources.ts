import type { ReconciliationReport } from '../../../application/reconciliation/reconciliation-report';
import {
  MismatchKind,
  RecordedReconciliationRun,
  ReconciliationTrigger,
} from '../../../application/ports/reconciliation-runs.port';
import { FindingKind } from '../../../domain/reconciliation/reconciliation';

/** One reconciliation run as the back office shows it. */
export interface ReconciliationRunResource {
  run_id: string;
  provider: string;
  /** The UTC day judged. */
  date: string;
  trigger: ReconciliationTrigger;
  /** The operator's name, or `reconciliation` for a run of the schedule. */
  actor: string;
  job_id: string | null;
  attempt: number | null;
  started_at: string;
  finished_at: string;
  outcome: 'succeeded' | 'failed';
  /** Why it failed (the report could not be read, a date did not read); null when it succeeded. */
  error: string | null;
  complete: boolean;
  counts: Record<FindingKind, number>;
  recorded: number;
  open_orders: number | null;
  /** At most 100; `counts` has them all. */
  mismatches: { kind: MismatchKind; order_id: string; detail: string; recorded: boolean }[];
}

export interface ReconciliationReportResource {
  provider: string;
  date: string;
  complete: boolean;
  generated_at: string;
  counts: Record<FindingKind, number>;
  recorded: number;
  findings: {
    kind: FindingKind;
    order_id: string;
    partner_id: string | null;
    detail: string;
    upstream: { transaction_id: string; status: string; amount: string; currency: string; at: string } | null;
    ours: { status: string; amount: string; currency: string; placed_at: string; operator_ref: string | null } | null;
  }[];
}

export function runResource(run: RecordedReconciliationRun): ReconciliationRunResource {
  return {
    run_id: run.runId,
    provider: run.provider,
    date: run.date,
    trigger: run.trigger,
    actor: run.actor,
    job_id: run.jobId,
    attempt: run.attempt,
    started_at: run.startedAt.toISOString(),
    finished_at: run.finishedAt.toISOString(),
    outcome: run.error === null ? 'succeeded' : 'failed',
    error: run.error,
    complete: run.complete,
    counts: run.counts,
    recorded: run.recorded,
    open_orders: run.openOrders,
    mismatches: run.mismatches.map((mismatch) => ({
      kind: mismatch.kind,
      order_id: mismatch.orderId,
      detail: mismatch.detail,
      recorded: mismatch.recorded,
    })),
  };
}

export const runsResource = (runs: readonly RecordedReconciliationRun[]) => ({
  runs: runs.map(runResource),
});

export function reconciliationReportResource(report: ReconciliationReport): ReconciliationReportResource {
  return {
    provider: report.provider,
    date: report.date,
    complete: report.complete,
    generated_at: report.generatedAt,
    counts: report.counts,
    recorded: report.recorded,
    findings: report.findings.map((finding) => ({
      kind: finding.kind,
      order_id: finding.orderId,
      partner_id: finding.partnerId,
      detail: finding.detail,
      upstream: finding.upstream
        ? {
            transaction_id: finding.upstream.transactionId,
            status: finding.upstream.status,
            amount: finding.upstream.amount,
            currency: finding.upstream.currency,
            at: finding.upstream.at,
          }
        : null,
      ours: finding.ours
        ? {
            status: finding.ours.status,
            amount: finding.ours.amount,
            currency: finding.ours.currency,
            placed_at: finding.ours.placedAt,
            operator_ref: finding.ours.operatorRef,
          }
        : null,
    })),
  };
}
