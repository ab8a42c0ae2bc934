import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { ProviderDays } from './provider-day';
import { reportUnreadable } from './reconcile-provider';
import { ReconciliationReport, reportOf } from './reconciliation-report';

export class ShowReconciliation extends Query<ReconciliationReport> {
  constructor(
    /** Null: the one configured provider that has a report. */
    readonly provider: string | null,
    readonly date: string,
  ) {
    super();
  }
}

/**
 * One UTC day of a provider's report against our live orders, as a read (GET): the same report as a
 * run, but nothing is recorded (no finding, no run, no alert); `recorded` is 0.
 */
@QueryHandler(ShowReconciliation)
export class ShowReconciliationHandler implements IQueryHandler<ShowReconciliation, ReconciliationReport> {
  constructor(private readonly days: ProviderDays) {}

  async execute({ provider, date }: ShowReconciliation): Promise<ReconciliationReport> {
    const day = this.days.dayOf(provider, date);
    const judged = await this.days.judge(day).catch((error: unknown) => {
      throw reportUnreadable(day.provider, error);
    });
    return reportOf({
      provider: day.provider,
      date,
      complete: judged.complete,
      generatedAt: judged.at.toISOString(),
      findings: judged.findings,
      recorded: 0,
    });
  }
}
