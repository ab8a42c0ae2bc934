import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { Actor } from '../../domain/shared/actor';
import { CLOCK, Clock } from '../ports/clock.port';
import { ProviderUnavailableError } from '../ports/provider-gateway.port';
import { ServiceError } from '../shared/service-error';
import { ProviderDays } from './provider-day';
import { ReconciliationReport, countsOf } from './reconciliation-report';
import { RunLog } from './run-log';

export class ReconcileProvider extends Command<ReconciliationReport> {
  constructor(
    /** Null: the one configured provider that has a report. */
    readonly provider: string | null,
    readonly date: string,
    readonly operator: Actor,
  ) {
    super();
  }
}

/**
 * An operator's reconciliation of one ended UTC day: each mismatch is a ReconciliationMismatchFound event
 * correlated with the order, and the run is recorded beside the log; a rerun records only what is new.
 */
@CommandHandler(ReconcileProvider)
export class ReconcileProviderHandler implements ICommandHandler<ReconcileProvider, ReconciliationReport> {
  constructor(
    private readonly days: ProviderDays,
    private readonly runs: RunLog,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ provider, date, operator }: ReconcileProvider): Promise<ReconciliationReport> {
    const day = this.days.dayOf(provider, date);
    const context = { trigger: 'operator' as const, actor: operator, jobId: null, attempt: null };
    const startedAt = this.clock.now();
    const judged = await this.days.judge(day).catch(async (error: unknown) => {
      await this.runs.failed({ ...context, startedAt }, day, error);
      throw reportUnreadable(day.provider, error);
    });
    const recorded = await this.runs.succeeded({ ...context, startedAt }, judged);
    return {
      provider: day.provider,
      date,
      complete: judged.complete,
      generatedAt: judged.at.toISOString(),
      counts: countsOf(judged.findings),
      recorded,
      findings: judged.findings,
    };
  }
}

/** A report that could not be read, as the back office answers it (503 provider_unavailable, with the provider's reason). */
export function reportUnreadable(provider: string, error: unknown): Error {
  if (error instanceof ProviderUnavailableError)
    return new ServiceError(
      'provider_unavailable',
      `the transaction report of ${provider} could not be read: ${error.message}`,
    );
  return error instanceof Error ? error : new Error(String(error));
}
