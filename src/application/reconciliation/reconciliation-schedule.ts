import { Inject, Injectable } from '@nestjs/common';
import {
  RECONCILIATION_LOOK_BACK_DAYS,
  dayAfter,
  lastEndedDay,
  reconciliationDueAt,
} from '../../domain/reconciliation/reconciliation-schedule';
import { CLOCK, Clock } from '../ports/clock.port';
import { JOB_QUEUE, JobQueue } from '../ports/job-queue.port';
import { PROVIDER_BACK_OFFICES, ProviderBackOffices } from '../ports/provider-back-office.port';
import { READ_MODELS, ReadModels } from '../ports/read-models.port';
import { RecurringWork } from '../ports/recurring-work.port';
import { JOB_KINDS } from '../shared/job-kinds';
import { SERVICE_SETTINGS, ServiceSettings } from '../shared/service-settings';

/** The run of a provider's day: one per provider and day, whichever process schedules it. */
export const reconciliationJobId = (provider: string, date: string): string =>
  `${JOB_KINDS.reconcileProvider}:${provider}:${date}`;

/** A day judged again by the run of a later day (`runDate`): one per day and run, whichever process schedules it. */
export const judgedAgainJobId = (provider: string, date: string, runDate: string): string =>
  `${JOB_KINDS.reconcileProvider}:${provider}:${date}:again:${runDate}`;

/**
 * When reconciliation runs by itself (decision 0123): each
 * provider's UTC day at RECONCILIATION_AT in its report zone once the day is over, as a durable job
 * with an id of its own per provider and day, so every process may schedule it and it runs once.
 */
@Injectable()
export class ReconciliationSchedule implements RecurringWork {
  constructor(
    @Inject(PROVIDER_BACK_OFFICES) private readonly backOffices: ProviderBackOffices,
    @Inject(READ_MODELS) private readonly readModels: ReadModels,
    @Inject(JOB_QUEUE) private readonly jobs: JobQueue,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(SERVICE_SETTINGS) private readonly settings: ServiceSettings,
  ) {}

  /** Whether runs happen by themselves (RECONCILIATION_AT is not off). */
  get enabled(): boolean {
    return this.settings.reconciliationAt !== null;
  }

  /**
   * At start, in every process: each configured provider's run of the day that ended last. A run scheduled
   * before keeps its row (and its time); from then on each run schedules the next day's.
   */
  async arm(): Promise<void> {
    if (!this.enabled) return;
    const day = lastEndedDay(this.clock.now());
    for (const provider of this.backOffices.reportNames()) await this.scheduleDay(provider, day);
  }

  /** The run of one provider's day; null when there is none to schedule (off, or the provider has no report). */
  async scheduleDay(provider: string, date: string): Promise<Date | null> {
    const at = this.settings.reconciliationAt;
    const source = this.backOffices.reportsOf(provider);
    if (!at || !source) return null;
    const dueAt = reconciliationDueAt(date, at, source.timeZone);
    await this.jobs.schedule({
      id: reconciliationJobId(provider, date),
      kind: JOB_KINDS.reconcileProvider,
      dueAt,
      payload: { provider, date, trigger: 'scheduled' },
    });
    return dueAt;
  }

  /**
   * The days before `runDate`, within the look-back, that still have orders in doubt (initiated, pending or
   * held), each judged again now: a provider's late word is found by the next night's run.
   */
  async judgeAgainInDoubt(provider: string, runDate: string): Promise<string[]> {
    const from = `${dayAfter(runDate, -RECONCILIATION_LOOK_BACK_DAYS)}T00:00:00.000Z`;
    const days = await this.readModels.daysWithOrdersInDoubt(provider, from, `${runDate}T00:00:00.000Z`);
    const now = this.clock.now();
    for (const date of days)
      await this.jobs.schedule({
        id: judgedAgainJobId(provider, date, runDate),
        kind: JOB_KINDS.reconcileProvider,
        dueAt: now,
        payload: { provider, date, trigger: 'in_doubt' },
      });
    return days;
  }
}
