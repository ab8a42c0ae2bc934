import { Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { Clock } from '../../application/ports/clock.port';
import { EventStore } from '../../application/ports/event-store.port';
import { IdempotencyStore } from '../../application/ports/idempotency-store.port';
import { RateLimiter } from '../../application/ports/rate-limiter.port';
import { JobWorker } from '../jobs/job-worker';
import { ProjectionDaemon } from '../projections/projection-daemon';
import { SqlDatabase } from '../sql/sql-database';

const PURGE_EVERY_MS = 10 * 60_000;

/**
 * The service's background work: projections, process-manager jobs and the purge of
 * expired idempotency keys. Started with the application, stopped (drained) on SIGTERM.
 */
export class BackgroundProcessing implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('BackgroundProcessing');
  private purgeTimer: NodeJS.Timeout | null = null;

  constructor(
    readonly projections: ProjectionDaemon,
    readonly jobs: JobWorker,
    private readonly idempotency: IdempotencyStore,
    private readonly clock: Clock,
    private readonly store: EventStore,
    private readonly db: SqlDatabase,
    private readonly runInBackground: boolean,
    private readonly rateLimiter: RateLimiter,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.projections.start();
    if (!this.runInBackground) return;
    this.projections.onReactionsApplied(() => this.jobs.kick());
    this.jobs.start();
    this.purgeTimer = setInterval(() => {
      const now = this.clock.now();
      this.idempotency.purgeExpired(now).catch((error) => this.logger.error(`idempotency purge failed: ${String(error)}`));
      this.rateLimiter.purgeBefore(new Date(now.getTime() - 5 * 60_000)).catch((error) => this.logger.error(`rate-limit purge failed: ${String(error)}`));
    }, PURGE_EVERY_MS);
  }

  /** Runs projections and due jobs until neither has anything left (tests and scripts). */
  async drain(maxRounds = 100): Promise<void> {
    for (let round = 0; round < maxRounds; round++) {
      const projected = await this.projections.catchUpAll();
      const ran = await this.jobs.runDue();
      if (projected === 0 && ran === 0) {
        // Committed events behind a transaction that is still open elsewhere become readable when it ends.
        if ((await this.store.countCommittedNotYetReadable()) === 0) return;
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    }
    throw new Error(`background work did not settle after ${maxRounds} rounds`);
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.purgeTimer) clearInterval(this.purgeTimer);
    await this.jobs.stop();
    await this.projections.stop();
    await this.store.close();
    await this.db.close();
  }
}
