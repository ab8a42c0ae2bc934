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
 * A provider's day reconciled by itself (decision 0123): the run first schedules the next day's and the earlier
 * days still in doubt, then judges its day. A failed run is recorded and thrown for the queue to retry; findings
 * are recorded once by their ids.
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
