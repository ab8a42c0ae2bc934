import { Job, JobHandler } from '../../../src/application/ports/job-queue.port';
import { ManualClock } from '../../support/manual-clock';
import { JobWorker } from '../../../src/infrastructure/jobs/job-worker';
import { JOBS_SCHEMA } from '../../../src/infrastructure/jobs/jobs.schema';
import { SqlJobQueue } from '../../../src/infrastructure/jobs/sql-job-queue';
import { applySchema } from '../../../src/infrastructure/sql/migrations';
import { PostgresDatabase } from '../../../src/infrastructure/sql/postgres-database';
import { createTestDatabase, TestDatabase } from '../../support/postgres-test-database';

/**
 * A job that hangs (a webhook receiver that never answers, until WEBHOOK_TIMEOUT_MS) must not hold
 * back work scheduled while it runs: the kick that announces the new job is heard at once, not
 * when the hung job ends. (Found by the hanging-receiver failure drill.)
 */
describe('job worker: a hung job and work scheduled meanwhile', () => {
  let database: TestDatabase;
  let db: PostgresDatabase;

  beforeAll(async () => {
    database = await createTestDatabase('job_worker_hung');
    db = new PostgresDatabase({ connectionString: database.connectionString, maxConnections: 4 });
    await applySchema(db, [JOBS_SCHEMA]);
  });
  afterAll(async () => {
    await db.close();
    await database.drop();
  });

  it('runs a job scheduled while another one hangs, without waiting for it', async () => {
    const clock = new ManualClock();
    let releaseHung: () => void = () => undefined;
    let hungStarted: () => void = () => undefined;
    const hungRunning = new Promise<void>((resolve) => (hungStarted = resolve));
    let quickRan: () => void = () => undefined;
    const quickDone = new Promise<'ran'>((resolve) => (quickRan = () => resolve('ran')));
    const handlers: JobHandler[] = [
      {
        kind: 'refund-order',
        run: () =>
          new Promise<void>((resolve) => {
            releaseHung = resolve;
            hungStarted();
          }),
      },
      { kind: 'hold-stuck-order', run: async () => quickRan() },
    ];
    const worker = new JobWorker(db, handlers, clock, {
      leaseMs: 60_000,
      pollIntervalMs: 0,
      concurrency: 4,
      retryDelayMs: () => 1_000,
      onError: () => undefined,
    });
    const queue = new SqlJobQueue(db);
    const job = (id: string, kind: 'refund-order' | 'hold-stuck-order'): Job => ({
      id,
      kind,
      dueAt: clock.now(),
      payload: { orderId: id },
    });

    await queue.schedule(job('hung-1', 'refund-order'));
    const drained = worker.runDue();
    await hungRunning;
    await queue.schedule(job('quick-1', 'hold-stuck-order'));
    worker.kick();

    const blocked = new Promise<'blocked'>((resolve) => setTimeout(() => resolve('blocked'), 5_000).unref());
    const outcome = await Promise.race([quickDone, blocked]);
    releaseHung();
    await drained;
    await worker.stop();
    expect(outcome).toBe('ran');
  });
});
