import { Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { Clock } from '../../application/ports/clock.port';
import { EventLogDiagnostics } from '../../application/ports/event-log-diagnostics.port';
import { EventStore } from '../../application/ports/event-store.port';
import { IdempotencyStore } from '../../application/ports/idempotency-store.port';
import { RateLimiter } from '../../application/ports/rate-limiter.port';
import { RecurringWork } from '../../application/ports/recurring-work.port';
import { SqlAccessFences } from '../access/sql-access-fences';
import { JobWorker } from '../jobs/job-worker';
import { Purged, SqlRetention } from '../retention/sql-retention';
import { ProjectionDaemon } from '../projections/projection-daemon';
import { SqlDatabase } from '../sql/sql-database';

const PURGE_EVERY_MS = 10 * 60_000;

export interface BackgroundElsewhere {
  /** Something was appended here: the background thread should look for new events now rather than at its next poll. */
  nudge(): void;
  stop(): Promise<void>;
}

/** Where background work runs: `here`, `elsewhere` (the background thread; this one projects only for the barrier), or `by_hand` (tests). */
export type BackgroundMode =
  { kind: 'here' } | { kind: 'elsewhere'; thread: BackgroundElsewhere } | { kind: 'by_hand' };

export class BackgroundProcessing implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('BackgroundProcessing');
  private purgeTimer: NodeJS.Timeout | null = null;
  private unsubscribe: (() => void) | null = null;

  constructor(
    readonly projections: ProjectionDaemon,
    readonly jobs: JobWorker,
    private readonly idempotency: IdempotencyStore,
    private readonly clock: Clock,
    private readonly store: EventStore,
    /** For a drain to know that no committed event waits behind an open transaction. */
    private readonly diagnostics: Pick<EventLogDiagnostics, 'countCommittedNotYetReadable'>,
    private readonly db: SqlDatabase,
    private readonly mode: BackgroundMode,
    private readonly rateLimiter: RateLimiter,
    private readonly retention: SqlRetention,
    private readonly fences: SqlAccessFences,
    /** Scheduled by every process that runs jobs (or, by hand, tests) when it starts: daily reconciliation. */
    private readonly recurring: readonly RecurringWork[] = [],
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (this.mode.kind === 'elsewhere') {
      const thread = this.mode.thread;
      await this.projections.start({ follow: false });
      this.unsubscribe = this.store.subscribe(() => thread.nudge());
      return;
    }
    // Tests drive jobs by hand, but local appends still move the projections, as in the service.
    await this.projections.start({ follow: true });
    for (const work of this.recurring)
      await work.arm().catch((error: unknown) => this.logger.error(`scheduling at start failed: ${String(error)}`));
    if (this.mode.kind !== 'here') return;
    this.projections.onJobsScheduled(() => this.jobs.kick());
    this.jobs.start();
    this.purgeTimer = setInterval(() => {
      const now = this.clock.now();
      this.idempotency
        .purgeExpired(now)
        .catch((error: unknown) => this.logger.error(`idempotency purge failed: ${String(error)}`));
      this.rateLimiter
        .purgeBefore(new Date(now.getTime() - 5 * 60_000))
        .catch((error: unknown) => this.logger.error(`rate-limit purge failed: ${String(error)}`));
      this.purgeRetained().catch((error: unknown) => this.logger.error(`retention purge failed: ${String(error)}`));
    }, PURGE_EVERY_MS);
  }

  /** Finished jobs and webhook records past their retention (on the injected clock), and access fences the read models have passed. */
  async purgeRetained(): Promise<Purged> {
    const purged = await this.retention.purge(this.clock.now());
    await this.fences.dropPassed(1_000);
    if (purged.jobs + purged.webhookAttempts + purged.webhookDeliveries + purged.keyRefusals > 0) {
      this.logger.log(
        `retention: purged ${purged.jobs} finished jobs, ${purged.webhookAttempts} webhook attempts, ` +
          `${purged.webhookDeliveries} webhook deliveries, ${purged.keyRefusals} key refusals`,
      );
    }
    return purged;
  }

  nudge(): void {
    this.projections.nudge();
  }

  async drain(maxRounds = 100): Promise<void> {
    for (let round = 0; round < maxRounds; round++) {
      const projected = await this.projections.catchUpAll();
      const ran = await this.jobs.runDue();
      if (projected === 0 && ran === 0) {
        // Committed events behind a transaction that is still open elsewhere become readable when it ends.
        if ((await this.diagnostics.countCommittedNotYetReadable()) === 0) return;
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    }
    throw new Error(`background work did not settle after ${maxRounds} rounds`);
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.purgeTimer) clearInterval(this.purgeTimer);
    this.unsubscribe?.();
    if (this.mode.kind === 'elsewhere') await this.mode.thread.stop();
    await this.jobs.stop();
    await this.projections.stop();
    await this.store.close();
    await this.db.close();
  }
}
