import { Client } from 'pg';
import { randomUUID } from 'node:crypto';
import { NewEvent, UntypedEvent } from '../../src/application/ports/event-store.port';
import { EVENT_LOG_SCRIPTS } from '../../src/infrastructure/event-store/sql-event-store.schema';
import { IDEMPOTENCY_SCHEMA } from '../../src/infrastructure/idempotency/idempotency.schema';
import { SqlEventStore } from '../../src/infrastructure/event-store/sql-event-store';
import { applySchema } from '../../src/infrastructure/sql/migrations';
import { PostgresDatabase } from '../../src/infrastructure/sql/postgres-database';
import { createTestDatabase } from '../support/postgres-test-database';
import { UNTYPED_EVENTS } from '../support/untyped-events';

const event = (): NewEvent<UntypedEvent> => ({
  eventId: randomUUID(),
  type: 'HorizonProbe',
  schemaVersion: 1,
  data: {},
  metadata: {
    partnerId: null,
    environment: null,
    correlationId: 'horizon',
    causationId: null,
    actor: { type: 'system', id: 'test' },
    occurredAt: new Date().toISOString(),
  },
});

describe('what a catch-up reader may read on a shared PostgreSQL server', () => {
  let mine: { connectionString: string; drop(): Promise<void> };
  let other: { connectionString: string; drop(): Promise<void> };
  let db: PostgresDatabase;
  let store: SqlEventStore<UntypedEvent>;

  beforeAll(async () => {
    mine = await createTestDatabase('horizon');
    other = await createTestDatabase('horizon_other');
    db = new PostgresDatabase({ connectionString: mine.connectionString });
    await applySchema(db, [...EVENT_LOG_SCRIPTS, IDEMPOTENCY_SCHEMA]);
    store = new SqlEventStore(db, UNTYPED_EVENTS);
  });
  afterAll(async () => {
    await db.close();
    await mine.drop();
    await other.drop();
  });

  it('a transaction left open in another database does not hold back this service’s readers', async () => {
    const foreign = new Client({ connectionString: other.connectionString });
    await foreign.connect();
    try {
      await foreign.query('BEGIN');
      await foreign.query('CREATE TABLE busy (x int)');
      const head = await store.headPosition();
      await store.append(`horizon-${randomUUID()}`, [event()], 'no_stream');
      expect(await store.readAll(head, { maxCount: 10 })).toHaveLength(1);
      expect(await store.countCommittedNotYetReadable()).toBe(0);
    } finally {
      await foreign.query('ROLLBACK');
      await foreign.end();
    }
  });

  it('a transaction open in this database holds readers back until it ends, so nothing it writes can be skipped', async () => {
    const local = new Client({ connectionString: mine.connectionString });
    await local.connect();
    const head = await store.headPosition();
    try {
      await local.query('BEGIN');
      await local.query('SELECT pg_current_xact_id()');
      const held = await store.append(`horizon-${randomUUID()}`, [event()], 'no_stream');
      expect(await store.readAll(head, { maxCount: 10 })).toHaveLength(0);
      expect(await store.countCommittedNotYetReadable()).toBe(1);
      expect(await store.headPosition()).toEqual(head);
      expect(await store.committedHeadPosition()).toEqual(held.position);
    } finally {
      await local.query('ROLLBACK');
      await local.end();
    }
    expect(await store.readAll(head, { maxCount: 10 })).toHaveLength(1);
  });
});
