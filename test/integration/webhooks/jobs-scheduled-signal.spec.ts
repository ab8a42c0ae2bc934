import { RecordedEvent } from '../../../src/application/ports/event-store.port';
import { reactionJob, Reaction } from '../../../src/application/ports/reaction.port';
import { JOBS_SCHEMA } from '../../../src/infrastructure/jobs/jobs.schema';
import { reactionsProjection, scheduledJobs } from '../../../src/infrastructure/jobs/reactions.projection';
import { applyEvents, BatchScope } from '../../../src/infrastructure/projections/sql-projection';
import { applySchema } from '../../../src/infrastructure/sql/migrations';
import { PostgresDatabase } from '../../../src/infrastructure/sql/postgres-database';
import { createTestDatabase, TestDatabase } from '../../support/postgres-test-database';

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

/** Asks for a refund of the orders whose id ends in "-wanted", and for nothing otherwise. */
const refundsOfWantedOrders: Reaction = {
  handles: new Set(['TransactionSettled']),
  jobsFor: (event) => {
    const orderId = event.metadata.correlationId;
    return orderId.endsWith('-wanted') ? [reactionJob('refund-order', orderId, at, { orderId })] : [];
  },
};

/** What the job worker is told after a reactions batch: whether the batch scheduled any job (the worker looks only then). */
describe('the reactions telling whether a batch scheduled jobs', () => {
  let database: TestDatabase;
  let db: PostgresDatabase;
  const projection = reactionsProjection([refundsOfWantedOrders]);

  beforeAll(async () => {
    database = await createTestDatabase('jobs_scheduled_signal');
    db = new PostgresDatabase({ connectionString: database.connectionString, maxConnections: 2 });
    await applySchema(db, [JOBS_SCHEMA]);
  });

  afterAll(async () => {
    await db.close();
    await database.drop();
  });

  const applied = async (events: readonly RecordedEvent[]): Promise<BatchScope> => {
    const batch = new BatchScope();
    await db.transaction((tx) => applyEvents(projection, events, tx, batch));
    return batch;
  };
  const jobs = async () =>
    (await db.query<{ job_id: string }>('SELECT job_id FROM jobs ORDER BY job_id')).map((row) => row.job_id);

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
