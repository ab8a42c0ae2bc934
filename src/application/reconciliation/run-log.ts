import { Inject, Injectable, Logger } from '@nestjs/common';
import { Finding, MISMATCH_KINDS } from '../../domain/reconciliation/reconciliation';
import { Actor } from '../../domain/shared/actor';
import { CLOCK, Clock } from '../ports/clock.port';
import {
  MismatchKind,
  RECONCILIATION_METRICS,
  RECONCILIATION_RUNS,
  RUN_MISMATCHES_KEPT,
  ReconciliationMetrics,
  ReconciliationRuns,
  ReconciliationTrigger,
} from '../ports/reconciliation-runs.port';
import { FindingRecorder } from './finding-recorder';
import { JudgedDay } from './provider-day';
import { countsOf } from './reconciliation-report';

/** Who ran a reconciliation, and how. */
export interface RunContext {
  trigger: ReconciliationTrigger;
  actor: Actor;
  jobId: string | null;
  attempt: number | null;
  startedAt: Date;
}

/**
 * What a reconciliation run leaves behind (decision 0123): the
 * findings of a day that is over, each once (FindingRecorder), the run's summary in
 * `reconciliation_runs`, a count of its end for Prometheus, and a line in the service log.
 */
@Injectable()
export class RunLog {
  private readonly logger = new Logger('Reconciliation');

  constructor(
    private readonly findings: FindingRecorder,
    @Inject(RECONCILIATION_RUNS) private readonly runs: ReconciliationRuns,
    @Inject(RECONCILIATION_METRICS) private readonly metrics: ReconciliationMetrics,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** Records the findings of a judged day (nothing of a day not over) and the run; returns how many findings were new. */
  async succeeded(context: RunContext, judged: JudgedDay): Promise<number> {
    const { provider, date } = judged.day;
    const recorded = new Set<Finding>(
      judged.complete ? await this.findings.record(provider, date, judged.findings, context.actor, judged.at) : [],
    );
    const counts = countsOf(judged.findings);
    const mismatches = judged.findings.filter((finding) => MISMATCH_KINDS.includes(finding.kind));
    await this.runs.record({
      provider,
      date,
      trigger: context.trigger,
      actor: context.actor.id,
      jobId: context.jobId,
      attempt: context.attempt,
      startedAt: context.startedAt,
      finishedAt: this.clock.now(),
      error: null,
      complete: judged.complete,
      counts,
      recorded: recorded.size,
      openOrders: judged.openOrders,
      mismatches: mismatches.slice(0, RUN_MISMATCHES_KEPT).map((finding) => ({
        kind: finding.kind as MismatchKind,
        orderId: finding.orderId,
        detail: finding.detail,
        recorded: recorded.has(finding),
      })),
    });
    this.metrics.runEnded(provider, context.trigger, 'succeeded');
    this.logger.log(
      `reconciliation of ${provider} ${date} (${context.trigger}${judged.complete ? '' : ', day not over'}): ` +
        `${counts.matched} matched, ${mismatches.length} mismatch(es), ${recorded.size} recorded, ${judged.openOrders} order(s) still open`,
    );
    return recorded.size;
  }

  /** Records a run that failed (the report could not be read); the caller throws the error on. */
  async failed(context: RunContext, day: { provider: string; date: string }, error: unknown): Promise<void> {
    const message = error instanceof Error ? error.message : String(error);
    this.metrics.runEnded(day.provider, context.trigger, 'failed');
    const attempt = context.attempt === null ? '' : `, attempt ${context.attempt}`;
    this.logger.warn(
      `ALERT reconciliation of ${day.provider} ${day.date} failed (${context.trigger}${attempt}): ${message}`,
    );
    const finishedAt = this.clock.now();
    try {
      await this.runs.record({
        ...day,
        trigger: context.trigger,
        actor: context.actor.id,
        jobId: context.jobId,
        attempt: context.attempt,
        startedAt: context.startedAt,
        finishedAt,
        error: message,
        complete: Date.parse(`${day.date}T00:00:00.000Z`) + 86_400_000 <= finishedAt.getTime(),
        counts: countsOf([]),
        recorded: 0,
        openOrders: null,
        mismatches: [],
      });
    } catch (recording) {
      this.logger.error(`the failed run of ${day.provider} ${day.date} could not be recorded: ${String(recording)}`);
    }
  }
}
