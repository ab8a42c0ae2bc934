import { Inject, Injectable, Logger } from '@nestjs/common';
import { dayAfter } from '../../domain/reconciliation/reconciliation-schedule';
import { systemActor } from '../../domain/shared/actor';
import { CLOCK, Clock } from '../ports/clock.port';
import { Job, JobHandler } from '../ports/job-queue.port';
import { PROVIDER_BACK_OFFICES, ProviderBackOffices } from '../ports/provider-back-office.port';
import { JOB_KINDS } from '../shared/job-kinds';
import { ProviderDays } from './provider-day';
import { ReconciliationSchedule } from './reconciliation-schedule';
import { RunLog } from './run-log';

/**
 * A provider's day reconciled by itself (docs/decisions/0123-scheduled-reconciliation.md). The run of
 * the day that just ended first schedules the next day's run and the earlier days still in doubt,
 * then judges its day. A run that fails (the report could not be read) is recorded, logged and
 * thrown: the queue runs it again later. Findings are recorded once by their ids, so a second run
 * of the same day records nothing more.
 */
@Injectable()
export class ReconcileProviderJob implements JobHandler<'reconcile-provider'> {
  readonly kind = JOB_KINDS.reconcileProvider;
  private readonly logger = new Logger('Reconciliation');

  constructor(
    private readonly days: ProviderDays,
    private readonly runs: RunLog,
    private readonly schedule: ReconciliationSchedule,
    @Inject(PROVIDER_BACK_OFFICES) private readonly backOffices: ProviderBackOffices,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async run(job: Job<'reconcile-provider'>, attempt: number): Promise<void> {
    const { provider, date, trigger } = job.payload;
    if (!this.schedule.enabled || !this.backOffices.reportsOf(provider)) {
      this.logger.warn(
        `reconciliation of ${provider} ${date} not run: ${this.schedule.enabled ? `${provider} is not configured, or has no transaction report` : 'RECONCILIATION_AT is off'}`,
      );
      return;
    }
    if (trigger === 'scheduled') {
      await this.schedule.scheduleDay(provider, dayAfter(date));
      await this.schedule.judgeAgainInDoubt(provider, date);
    }
    const day = this.days.dayOf(provider, date);
    const context = {
      trigger,
      actor: systemActor('reconciliation'),
      jobId: job.id,
      attempt,
      startedAt: this.clock.now(),
    };
    const judged = await this.days.judge(day).catch(async (error: unknown) => {
      await this.runs.failed(context, day, error);
      throw error;
    });
    await this.runs.succeeded(context, judged);
  }
}
