import { Inject } from '@nestjs/common';
import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { RECONCILIATION_RUNS, RecordedReconciliationRun, ReconciliationRuns } from '../ports/reconciliation-runs.port';
import { ServiceError } from '../shared/service-error';
import { ProviderDays } from './provider-day';

export class ShowReconciliation extends Query<RecordedReconciliationRun> {
  constructor(
    /** Null: the one configured provider that has a report. */
    readonly provider: string | null,
    readonly date: string,
  ) {
    super();
  }
}

/**
 * The latest recorded reconciliation run of a provider's UTC day (GET): a pure read of what the
 * schedule or an operator's POST stored. It asks the provider nothing and writes nothing
 * (decision 0133); a day never run is 404.
 */
@QueryHandler(ShowReconciliation)
export class ShowReconciliationHandler implements IQueryHandler<ShowReconciliation, RecordedReconciliationRun> {
  constructor(
    private readonly days: ProviderDays,
    @Inject(RECONCILIATION_RUNS) private readonly runs: ReconciliationRuns,
  ) {}

  async execute({ provider, date }: ShowReconciliation): Promise<RecordedReconciliationRun> {
    const day = this.days.dayOf(provider, date);
    const [latest] = await this.runs.recent(day.provider, 1, date);
    if (!latest)
      throw new ServiceError(
        'not_found',
        `no reconciliation of ${day.provider} for ${date} is recorded yet; POST /v1/admin/providers/reconciliation runs it`,
      );
    return latest;
  }
}
