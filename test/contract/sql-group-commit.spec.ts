import { randomUUID } from 'node:crypto';
import { UntypedEvent } from '../../src/application/ports/event-store.port';
import { SqlEventStore } from '../../src/infrastructure/event-store/sql-event-store';
import { EVENT_LOG_SCRIPTS } from '../../src/infrastructure/event-store/sql-event-store.schema';
import { IDEMPOTENCY_SCHEMA } from '../../src/infrastructure/idempotency/idempotency.schema';
import { applySchema } from '../../src/infrastructure/sql/migrations';
import { PostgresDatabase } from '../../src/infrastructure/sql/postgres-database';
import { SqlDatabase, SqlExecutor } from '../../src/infrastructure/sql/sql-database';
import { createTestDatabase, TestDatabase } from '../support/postgres-test-database';
import { UNTYPED_EVENTS } from '../support/untyped-events';
import { newEvent } from './event-store-contract-support';

/** The database as the store sees it, counting the statements that insert events. */
class AppendCounting implements SqlDatabase {
  appendStatements = 0;

  constructor(private readonly db: SqlDatabase) {}

  query<Row extends object>(text: string, params?: readonly unknown[]): Promise<Row[]> {
    if (text.includes('INSERT INTO es_events')) this.appendStatements += 1;
    return this.db.query<Row>(text, params);
  }
  transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }
  exec(script: string): Promise<void> {
    return this.db.exec(script);
  }
  withAsynchronousCommit(): SqlDatabase {
    return this;
  }
  close(): Promise<void> {
    return Promise.resolve();
  }
}

/**
 * Appends to different streams that arrive while one is on its way to PostgreSQL wait for it and go together in the
 * next statement: one statement in flight at a time, so that each gathers for a whole round trip (decision 0173).
 */
describe('the SQL group commit on PostgreSQL', () => {
  let database: TestDatabase;
  let db: PostgresDatabase;
  let counting: AppendCounting;
  let store: SqlEventStore<UntypedEvent>;

  beforeAll(async () => {
    database = await createTestDatabase('group_commit');
    db = new PostgresDatabase({ connectionString: database.connectionString, maxConnections: 4 });
    await applySchema(db, [...EVENT_LOG_SCRIPTS, IDEMPOTENCY_SCHEMA]);
    counting = new AppendCounting(db);
    store = new SqlEventStore(counting, UNTYPED_EVENTS);
  });
  afterAll(async () => {
    await store.close();
    await db.close();
    await database.drop();
  });

  it('sends the first of ten concurrent appends alone and the nine that arrived meanwhile in one statement', async () => {
    const streams = Array.from({ length: 10 }, () => `group-${randomUUID()}`);
    const before = counting.appendStatements;

    const results = await Promise.all(streams.map((stream) => store.append(stream, [newEvent('A')], 'no_stream')));

    expect(counting.appendStatements - before).toBe(2);
    expect(results.map((result) => result.nextRevision)).toEqual(streams.map(() => 0));
    for (const stream of streams) expect((await store.readStream(stream)).map((event) => event.type)).toEqual(['A']);
  });

  it('gives each append of a shared statement its own outcome: a stale one is refused, the others are stored', async () => {
    const taken = `group-${randomUUID()}`;
    await store.append(taken, [newEvent('A')], 'no_stream');
    const streams = Array.from({ length: 4 }, () => `group-${randomUUID()}`);

    const outcomes = await Promise.allSettled([
      store.append(`group-${randomUUID()}`, [newEvent('first')], 'no_stream'),
      store.append(taken, [newEvent('stale')], 'no_stream'),
      ...streams.map((stream) => store.append(stream, [newEvent('B')], 'no_stream')),
    ]);

    expect(outcomes.map((outcome) => outcome.status)).toEqual([
      'fulfilled',
      'rejected',
      'fulfilled',
      'fulfilled',
      'fulfilled',
      'fulfilled',
    ]);
    expect((await store.readStream(taken)).map((event) => event.type)).toEqual(['A']);
    for (const stream of streams) expect((await store.readStream(stream)).map((event) => event.type)).toEqual(['B']);
  });
});
