import { SqlAccessFences } from '../infrastructure/access/sql-access-fences';
import { SqlRetention } from '../infrastructure/retention/sql-retention';
import { DynamicModule, Global, Logger, Module } from '@nestjs/common';
import { CLOCK, Clock } from '../application/ports/clock.port';
import { EVENT_STORE, EventStore } from '../application/ports/event-store.port';
import { EVENT_LOG_DIAGNOSTICS, EventLogDiagnostics } from '../application/ports/event-log-diagnostics.port';
import { IDEMPOTENCY_STORE, IdempotencyStore } from '../application/ports/idempotency-store.port';
import { RATE_LIMITER, RateLimiter } from '../application/ports/rate-limiter.port';
import { JobHandler, JOB_HANDLERS } from '../application/ports/job-queue.port';
import { PROJECTION_BARRIER } from '../application/ports/read-models.port';
import { orderReactions } from '../application/settlement/order-reactions';
import { webhookReactions } from '../application/webhooks/webhook-reactions';
import { lowBalanceReactions } from '../application/wallets/low-balance-notice';
import { ServiceConfig } from '../config/service-config';
import { JobWorker } from '../infrastructure/jobs/job-worker';
import { countOrderOutcomes } from '../infrastructure/metrics/order-outcome-metrics';
import { reactionsProjection, scheduledJobs } from '../infrastructure/jobs/reactions.projection';
import { BackgroundMode, BackgroundProcessing } from '../infrastructure/processing/background-processing';
import { ProjectionDaemon, realTimeSpacing } from '../infrastructure/projections/projection-daemon';
import { SharedLogReads } from '../infrastructure/projections/shared-log-reads';
import { SqlEventStore } from '../infrastructure/event-store/sql-event-store';
import { SqlProjectionAdmin } from '../infrastructure/projections/sql-projection-admin';
import { PROJECTION_ADMIN } from '../application/ports/projections.port';
import { Projector } from '../infrastructure/projections/projector';
import { PROJECTION_GROUPS } from '../infrastructure/projections/projection-groups';
import { readModelProjections } from '../infrastructure/read-models/read-model-projections';
import { SqlDatabase } from '../infrastructure/sql/sql-database';
import { SqlServiceMonitor } from '../infrastructure/operations/sql-service-monitor';
import { SERVICE_MONITOR } from '../application/ports/service-monitor.port';
import { SQL_DATABASE } from './tokens';
import { ReconciliationSchedule } from '../application/reconciliation/reconciliation-schedule';
import { ApplicationModule } from './application.module';

export interface ProcessingOptions {
  background: BackgroundMode;
}

/** Far above any handler's own deadline (webhook and provider calls time out well before). */
const JOB_LEASE_MS = 5 * 60_000;
const READ_MODELS_GROUP = PROJECTION_GROUPS.readModels;
const REACTIONS_GROUP = PROJECTION_GROUPS.reactions;

@Global()
@Module({})
export class ProcessingModule {
  static forRoot(config: ServiceConfig, options: ProcessingOptions): DynamicModule {
    const logger = new Logger('Processing');
    const reactions = reactionsProjection([orderReactions(), webhookReactions, lowBalanceReactions]);
    const readModels = readModelProjections();
    return {
      module: ProcessingModule,
      imports: [ApplicationModule],
      providers: [
        {
          provide: ProjectionDaemon,
          inject: [EVENT_STORE, EVENT_LOG_DIAGNOSTICS, SQL_DATABASE],
          useFactory: (store: EventStore, diagnostics: EventLogDiagnostics, db: SqlDatabase) => {
            // The SQL store hands a projector the events this process appended (no read back); elsewhere the two
            // groups, which usually read the same new events one after the other, share one read of a page.
            const shared = new SharedLogReads(store);
            const reads = (projector: string) =>
              store instanceof SqlEventStore ? store.projectorReads(projector) : shared;
            const reactionsProjector = new Projector(
              REACTIONS_GROUP,
              [reactions],
              reads(REACTIONS_GROUP),
              db.withAsynchronousCommit(),
            );
            const daemon = new ProjectionDaemon(
              // Both rebuild from the log after a crash; their rows and checkpoints commit together.
              [
                new Projector(
                  READ_MODELS_GROUP,
                  readModels,
                  reads(READ_MODELS_GROUP),
                  db.withAsynchronousCommit(),
                ).afterCommit(
                  countOrderOutcomes(db, (error) => logger.warn(`order outcome metrics failed: ${String(error)}`)),
                ),
              ],
              [reactionsProjector],
              store,
              diagnostics,
              options.background.kind === 'here' ? config.projectionPollMs : 0,
              (error) => logger.error(`projection failed: ${String(error)}`),
              realTimeSpacing(config.projectionGatherMs),
            );
            reactionsProjector.afterCommit((_events, batch) => {
              if (scheduledJobs(batch)) daemon.noteJobsScheduled();
            });
            return daemon;
          },
        },
        { provide: PROJECTION_BARRIER, useExisting: ProjectionDaemon },
        {
          provide: SERVICE_MONITOR,
          inject: [SQL_DATABASE, ProjectionDaemon],
          useFactory: (db: SqlDatabase, daemon: ProjectionDaemon) => new SqlServiceMonitor(db, daemon),
        },
        {
          provide: PROJECTION_ADMIN,
          inject: [EVENT_STORE, EVENT_LOG_DIAGNOSTICS, SQL_DATABASE],
          useFactory: (store: EventStore, diagnostics: EventLogDiagnostics, db: SqlDatabase) =>
            new SqlProjectionAdmin(
              db,
              store,
              diagnostics,
              [
                { name: READ_MODELS_GROUP, projections: readModels, rebuildable: true },
                { name: REACTIONS_GROUP, projections: [reactions], rebuildable: false },
              ],
              (error) => logger.error(`projection rebuild failed: ${String(error)}`),
            ),
        },
        {
          provide: JobWorker,
          inject: [SQL_DATABASE, JOB_HANDLERS, CLOCK],
          useFactory: (db: SqlDatabase, handlers: JobHandler[], clock: Clock) =>
            new JobWorker(db, handlers, clock, {
              leaseMs: JOB_LEASE_MS,
              pollIntervalMs: config.jobPollMs,
              concurrency: config.jobConcurrency,
              retryDelayMs: (attempt) => Math.min(1000 * 2 ** Math.min(attempt, 8), 5 * 60_000),
              onError: (error, job) =>
                logger.warn(`job ${job.id} failed: ${error instanceof Error ? error.message : String(error)}`),
            }),
        },
        {
          provide: BackgroundProcessing,
          inject: [
            ProjectionDaemon,
            JobWorker,
            IDEMPOTENCY_STORE,
            CLOCK,
            EVENT_STORE,
            EVENT_LOG_DIAGNOSTICS,
            SQL_DATABASE,
            RATE_LIMITER,
            ReconciliationSchedule,
          ],
          useFactory: (
            daemon: ProjectionDaemon,
            worker: JobWorker,
            idempotency: IdempotencyStore,
            clock: Clock,
            store: EventStore,
            diagnostics: EventLogDiagnostics,
            db: SqlDatabase,
            rateLimiter: RateLimiter,
            reconciliation: ReconciliationSchedule,
          ) =>
            new BackgroundProcessing(
              daemon,
              worker,
              idempotency,
              clock,
              store,
              diagnostics,
              db,
              options.background,
              rateLimiter,
              new SqlRetention(db, {
                jobDays: config.jobRetentionDays,
                webhookAttemptDays: config.webhookAttemptRetentionDays,
                webhookDeliveryDays: config.webhookDeliveryRetentionDays,
              }),
              new SqlAccessFences(db),
              [reconciliation],
            ),
        },
      ],
      exports: [PROJECTION_BARRIER, PROJECTION_ADMIN, SERVICE_MONITOR, ProjectionDaemon, BackgroundProcessing],
    };
  }
}
