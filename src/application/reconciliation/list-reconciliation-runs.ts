import { Inject } from '@nestjs/common';
import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { FindingKind } from '../../domain/reconciliation/reconciliation';
import { PROVIDER_NAME } from '../../domain/routing/route';
import {
  MismatchKind,
  RECONCILIATION_RUNS,
  RecordedReconciliationRun,
  ReconciliationRuns,
  ReconciliationTrigger,
} from '../ports/reconciliation-runs.port';
import { ServiceError } from '../shared/service-error';

export const RUNS_LIMIT_DEFAULT = 20;
export const RUNS_LIMIT_MAX = 200;

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

export interface ReconciliationRunsResource {
  runs: ReconciliationRunResource[];
}

export class ListReconciliationRuns extends Query<ReconciliationRunsResource> {
  constructor(
    /** Null: every provider. */
    readonly provider: string | null,
    readonly limit: number,
  ) {
    super();
  }
}

/** The latest reconciliation runs, newest first: by the schedule, days judged again, and operators' runs. */
@QueryHandler(ListReconciliationRuns)
export class ListReconciliationRunsHandler implements IQueryHandler<
  ListReconciliationRuns,
  ReconciliationRunsResource
> {
  constructor(@Inject(RECONCILIATION_RUNS) private readonly runs: ReconciliationRuns) {}

  async execute({ provider, limit }: ListReconciliationRuns): Promise<ReconciliationRunsResource> {
    if (provider !== null && !PROVIDER_NAME.test(provider))
      throw new ServiceError('validation_failed', 'provider: lower-case letters, digits and -, 2 to 32 characters');
    if (!Number.isInteger(limit) || limit < 1 || limit > RUNS_LIMIT_MAX)
      throw new ServiceError('validation_failed', `limit: a whole number from 1 to ${RUNS_LIMIT_MAX}`);
    return { runs: (await this.runs.recent(provider, limit)).map(runResource) };
  }
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
