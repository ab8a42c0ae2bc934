import { RecordedEvent } from '../../../src/application/ports/event-store.port';
import { reactionJob, Reaction } from '../../../src/application/ports/reaction.port';
import { JOBS_SCHEMA } from '../../../src/infrastructure/jobs/jobs.schema';
import { reactionsProjection, scheduledJobs } from '../../../src/infrastructure/jobs/reactions.projection';
import { CHECKPOINT_SCHEMA, checkpoints } from '../../../src/infrastructure/projections/checkpoint-store';
import { Projector } from '../../../src/infrastructure/projections/projector';
import { applyEvents, BatchScope } from '../../../src/infrastructure/projections/sql-projection';
import { applySchema } from '../../../src/infrastructure/sql/migrations';
import { PostgresDatabase } from '../../../src/infrastructure/sql/postgres-database';
import { createTestDatabase, TestDatabase } from '../../support/postgres-test-database';
import { TestLog, recordedStatements } from '../../support/projector-harness';

const at = '2026-11-29T12:00:00.000Z';

function settled(orderId: string, prepare: number): RecordedEvent {
  return {
    type: 'TransactionSettled',
    eventId: `00000000-0000-4000-8000-${String(prepare).padStart(12, '0')}`,
    schemaVersion: 1,
    data: { orderId, operatorRef: `REF-${orderId}`, settledAt: at, resolvedBy: null, reason: null },
    metadata: {
      partnerId: 'ptr_a',
      environment: 'sandbox',
      correlationId: orderId,
      causationId: null,
      actor: { type: 'system', id: 'settlement' },
      occurredAt: at,
    },
    streamId: `order-${orderId}`,
    revision: 1,
    position: { commit: 1n, prepare: BigInt(prepare) },
    recordedAt: at,
  };
}

/** A refund for the orders whose id ends in "-wanted", nothing for the others. */
const refundsOfWantedOrders: Reaction = {
  handles: new Set(['TransactionSettled']),
  jobsFor: (event) => {
    const orderId = event.metadata.correlationId;
    return orderId.endsWith('-wanted') ? [reactionJob('refund-order', orderId, at, { orderId })] : [];
  },
};

describe('reactions batches that call for no job', () => {
  let database: TestDatabase;
  let db: PostgresDatabase;

  beforeAll(async () => {
    database = await createTestDatabase('reactions_without_jobs');
    db = new PostgresDatabase({ connectionString: database.connectionString, maxConnections: 2 });
    await applySchema(db, [CHECKPOINT_SCHEMA, JOBS_SCHEMA]);
  });

  beforeEach(() => db.query('DELETE FROM jobs'));

  afterAll(async () => {
    await db.close();
    await database.drop();
  });

  const jobs = async () =>
    (await db.query<{ job_id: string }>('SELECT job_id FROM jobs ORDER BY job_id')).map((row) => row.job_id);

  /** What the job worker is told after a batch: whether it scheduled any job (the worker looks only then). */
  describe('what a batch tells', () => {
    const applied = async (events: readonly RecordedEvent[]): Promise<BatchScope> => {
      const batch = new BatchScope();
      await db.transaction((tx) => applyEvents(reactionsProjection([refundsOfWantedOrders]), events, tx, batch));
      return batch;
    };

    it('says no for a batch whose events called for no job, and writes none', async () => {
      const batch = await applied([settled('ord_1', 1), settled('ord_2', 2)]);
      expect(scheduledJobs(batch)).toBe(false);
      expect(await jobs()).toEqual([]);
    });

    it('says yes for a batch that scheduled one, in a batch or alone', async () => {
      expect(scheduledJobs(await applied([settled('ord_3', 3), settled('ord_4-wanted', 4)]))).toBe(true);
      expect(scheduledJobs(await applied([settled('ord_5-wanted', 5)]))).toBe(true);
      expect(await jobs()).toEqual(['refund-order:ord_4-wanted', 'refund-order:ord_5-wanted']);
    });
  });

  it('moves the checkpoint in one statement, without a transaction; a batch with a job schedules it in one', async () => {
    const log = new TestLog();
    const { db: seen, statements } = recordedStatements(db);
    const projector = new Projector('reactions-a', [reactionsProjection([refundsOfWantedOrders])], log, seen);
    await projector.start();

    log.events.push(settled('ord_1', 1), settled('ord_2', 2));
    statements.length = 0;
    expect(await projector.catchUp()).toBe(2);
    expect(statements).toEqual(['UPDATE projection_checkpoints SET']);
    expect(await checkpoints.read(db, 'reactions-a')).toEqual({ commit: 1n, prepare: 2n });
    expect(await jobs()).toEqual([]);

    log.events.push(settled('ord_3-wanted', 3), settled('ord_4', 4));
    statements.length = 0;
    expect(await projector.catchUp()).toBe(2);
    expect(statements).toEqual(['BEGIN', 'UPDATE projection_checkpoints SET', 'INSERT INTO jobs', 'COMMIT']);
    expect(await checkpoints.read(db, 'reactions-a')).toEqual({ commit: 1n, prepare: 4n });
    expect(await jobs()).toEqual(['refund-order:ord_3-wanted']);
  });

  it('leaves a checkpoint another process moved meanwhile, and goes on from where that process left it', async () => {
    const log = new TestLog();
    const projector = new Projector('reactions-b', [reactionsProjection([refundsOfWantedOrders])], log, db);
    await projector.start();
    log.events.push(settled('ord_5', 5), settled('ord_6', 6));
    // Another process applied the first event of the page already.
    await checkpoints.write(db, 'reactions-b', { commit: 1n, prepare: 5n });

    await projector.catchUp();
    expect(await checkpoints.read(db, 'reactions-b')).toEqual({ commit: 1n, prepare: 6n });
    expect(projector.position).toEqual({ commit: 1n, prepare: 6n });
  });
});
