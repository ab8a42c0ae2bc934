import { Inject } from '@nestjs/common';
import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { PROVIDER_NAME } from '../../domain/routing/route';
import { RECONCILIATION_RUNS, RecordedReconciliationRun, ReconciliationRuns } from '../ports/reconciliation-runs.port';
import { ServiceError } from '../shared/service-error';

export const RUNS_LIMIT_DEFAULT = 20;
export const RUNS_LIMIT_MAX = 200;

export class ListReconciliationRuns extends Query<RecordedReconciliationRun[]> {
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
  RecordedReconciliationRun[]
> {
  constructor(@Inject(RECONCILIATION_RUNS) private readonly runs: ReconciliationRuns) {}

  async execute({ provider, limit }: ListReconciliationRuns): Promise<RecordedReconciliationRun[]> {
    if (provider !== null && !PROVIDER_NAME.test(provider))
      throw new ServiceError('validation_failed', 'provider: lower-case letters, digits and -, 2 to 32 characters');
    if (!Number.isInteger(limit) || limit < 1 || limit > RUNS_LIMIT_MAX)
      throw new ServiceError('validation_failed', `limit: a whole number from 1 to ${RUNS_LIMIT_MAX}`);
    return this.runs.recent(provider, limit);
  }
}
