import { EVENT_LOG_SCRIPTS } from '../../src/infrastructure/event-store/sql-event-store.schema';
import { SqlEventReads } from '../../src/infrastructure/event-store/sql-reads';
import { PostgresDatabase } from '../../src/infrastructure/sql/postgres-database';
import { readOrderViews } from '../../src/infrastructure/read-models/order-rows';
import { ordersProjection } from '../../src/infrastructure/read-models/orders.projection';
import { applySchema } from '../../src/infrastructure/sql/migrations';
import { SqlExecutor } from '../../src/infrastructure/sql/sql-database';
import { createTestDatabase, TestDatabase } from '../support/postgres-test-database';
import { UNTYPED_EVENTS } from '../support/untyped-events';

/**
 * Statements are prepared once per connection and PostgreSQL may keep their plans (`plan_cache_mode=auto`).
 * A plan cached while a table was small must not keep scanning it whole once it has grown: autovacuum,
 * which would refresh the statistics and so the plan, is off for the table here, as it may be on a
 * server; a connection's cached plans are discarded after a number of uses, the connection kept.
 */
const USES_BETWEEN_PLAN_DISCARDS = 20;

describe('statement plans on PostgreSQL', () => {
  let database: TestDatabase;
  let db: PostgresDatabase;

  beforeAll(async () => {
    database = await createTestDatabase('plans');
    db = new PostgresDatabase({
      connectionString: database.connectionString,
      maxConnections: 2,
      usesBetweenPlanDiscards: USES_BETWEEN_PLAN_DISCARDS,
    });
  });
  afterAll(async () => {
    await db.close();
    await database.drop();
  });

  it('may be cached on both pools', async () => {
    const [synchronous] = await db.query<{ plan_cache_mode: string }>('SHOW plan_cache_mode');
    const [asynchronous] = await db.withAsynchronousCommit().query<{ plan_cache_mode: string }>('SHOW plan_cache_mode');
    expect([synchronous.plan_cache_mode, asynchronous.plan_cache_mode]).toEqual(['auto', 'auto']);
  });

  it('use the index of a table that grew after the statement was first run, with no new statistics, once their connection has been used a number of times, on the same connections', async () => {
    const backends = new Set<number>();
    const grows = await growingTable(db, 'grows');
    const scansOfBump = (ids: string[]) =>
      grows.scansOfBump(ids, async (tx) => {
        const [{ pid }] = await tx.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
        backends.add(pid);
      });
    // Enough calls on the small table for PostgreSQL to settle on a cached plan.
    for (let call = 0; call < 12; call++) await scansOfBump(['s1', 's2']);
    await grows.grow();
    const scansPerCall: number[] = [];
    for (let call = 0; call < 2 * USES_BETWEEN_PLAN_DISCARDS + 10; call++)
      scansPerCall.push(await scansOfBump(['s150000']));
    // Each connection's plans are discarded within its uses; from then on no call scans the table.
    expect(scansPerCall.slice(2 * USES_BETWEEN_PLAN_DISCARDS)).toEqual(new Array<number>(10).fill(0));
    // Neither connection was replaced for it: no new backend parsed and planned everything again.
    expect(backends.size).toBeLessThanOrEqual(2);
    const [bumped] = await db.query<{ revision: string }>(`SELECT revision::text FROM grows WHERE id = 's150000'`);
    expect(bumped.revision).toBe(String(2 * USES_BETWEEN_PLAN_DISCARDS + 10));
  });

  it('use the index of a table that grew, with no new statistics, once their connection has kept them 30 seconds', async () => {
    let now = Date.parse('2026-12-02T00:00:00Z');
    const timed = new PostgresDatabase({
      connectionString: database.connectionString,
      maxConnections: 1,
      usesBetweenPlanDiscards: 1_000_000,
      now: () => now,
    });
    try {
      const grows = await growingTable(timed, 'grows_timed');
      const scansOfBump = (id: string) => grows.scansOfBump([id]);
      for (let call = 0; call < 12; call++) await scansOfBump('s1');
      await grows.grow();
      now += 29_000;
      expect(await scansOfBump('s150000')).toBe(1);
      now += 1_000;
      const scansOnceDiscarded: number[] = [];
      for (let call = 0; call < 5; call++) scansOnceDiscarded.push(await scansOfBump('s150000'));
      expect(scansOnceDiscarded).toEqual([0, 0, 0, 0, 0]);
    } finally {
      await timed.close();
    }
  });

  it('planned at each call, read the rows of an order list by the index of rm_orders once it grew, where a cached plan scans it', () =>
    onOneConnection(database, async (sameConnection) => {
      await applySchema(sameConnection, [ordersProjection.schema]);
      await sameConnection.exec(`ALTER TABLE rm_orders SET (autovacuum_enabled = false)`);
      const addOrders = (from: number, to: number) =>
        sameConnection.exec(`
          INSERT INTO rm_orders (order_id, partner_id, environment, kind, status, amount, currency, product, reference,
                                 balance_after, created_at, updated_at)
          SELECT 'ord_' || n, 'ptr_plans', 'sandbox', 'topup', 'SUCCESS', 10, 'INR', '{"kind":"topup","operatorId":1}',
                 'ref-' || n, 990, now(), now()
            FROM generate_series(${from}, ${to}) AS n`);
      // The same read spelled otherwise, so that it is named and its plan cached.
      const cachedRead = `SELECT * FROM rm_orders WHERE order_id = ANY($1::text[]) ORDER BY order_id`;
      // A projection batch's orders: a dozen or so.
      const batch = Array.from({ length: 15 }, (_, n) => `ord_${n + 1}`).sort();
      await addOrders(1, 20);
      const after = await scansOnceGrown(sameConnection, 'rm_orders', {
        expected: batch,
        perCall: (tx) => readOrderViews(batch, tx).then((views) => [...views.keys()].sort()),
        cached: (tx) =>
          tx.query<{ order_id: string }>(cachedRead, [batch]).then((rows) => rows.map((row) => row.order_id).sort()),
        grow: () => addOrders(21, 100_000),
      });
      expect(after).toEqual({ perCall: 0, cached: 5 });
    }));

  it("read the events at a projector's positions by the log's order index once it grew, where a cached plan scans it", () =>
    onOneConnection(database, async (sameConnection) => {
      await applySchema(sameConnection, EVENT_LOG_SCRIPTS);
      await sameConnection.exec(`ALTER TABLE es_events SET (autovacuum_enabled = false)`);
      const addEvents = (from: number, to: number) =>
        sameConnection.exec(`
          INSERT INTO es_events (event_id, stream_id, stream_revision, event_type, schema_version, data, metadata)
          SELECT gen_random_uuid(), 'wallet-' || n, 0, 'Credited', 1, '{}', '{}' FROM generate_series(${from}, ${to}) AS n`);
      await addEvents(1, 20);
      const wanted = (
        await sameConnection.query<{ commit: string; prepare: string }>(
          `SELECT transaction_id::text AS commit, global_position::text AS prepare FROM es_events
            WHERE stream_id IN ('wallet-3', 'wallet-7') ORDER BY global_position`,
        )
      ).map((row) => ({ commit: BigInt(row.commit), prepare: BigInt(row.prepare) }));
      // The same read spelled otherwise, so that it is named and its plan cached.
      const cachedRead = `SELECT es_events.stream_id FROM unnest($1::text[], $2::bigint[]) AS wanted(c, p)
                            JOIN es_events ON es_events.transaction_id = wanted.c::xid8 AND es_events.global_position = wanted.p
                           ORDER BY es_events.transaction_id, es_events.global_position`;
      const after = await scansOnceGrown(sameConnection, 'es_events', {
        expected: ['wallet-3', 'wallet-7'],
        perCall: (tx) =>
          new SqlEventReads(tx, UNTYPED_EVENTS).readAt(wanted).then((events) => events.map((event) => event.streamId)),
        cached: (tx) =>
          tx
            .query<{ stream_id: string }>(cachedRead, [
              wanted.map((position) => position.commit.toString()),
              wanted.map((position) => position.prepare.toString()),
            ])
            .then((rows) => rows.map((row) => row.stream_id)),
        grow: () => addEvents(21, 100_000),
      });
      expect(after).toEqual({ perCall: 0, cached: 5 });
    }));
});

/**
 * A table of 5 rows that autovacuum leaves alone, and a batch update joined to it: a plan made while the table is
 * small scans it. `scansOfBump` counts the whole-table scans of one update (after `before`, in its transaction).
 */
async function growingTable(db: PostgresDatabase, table: string) {
  await db.exec(`
    CREATE TABLE ${table} (id text PRIMARY KEY, revision bigint NOT NULL) WITH (autovacuum_enabled = false);
    INSERT INTO ${table} SELECT 's' || n, 0 FROM generate_series(1, 5) AS n;`);
  const bump = `UPDATE ${table} SET revision = ${table}.revision + 1
                  FROM jsonb_to_recordset($1::jsonb) AS wanted(id text)
                 WHERE ${table}.id = wanted.id`;
  return {
    scansOfBump: (ids: string[], before?: (tx: SqlExecutor) => Promise<void>) =>
      db.transaction(async (tx) => {
        await before?.(tx);
        return sequentialScansBy(tx, table, () => tx.query(bump, [JSON.stringify(ids.map((id) => ({ id })))]));
      }),
    grow: () => db.exec(`INSERT INTO ${table} SELECT 's' || n, 0 FROM generate_series(6, 200000) AS n`),
  };
}

/** A connection of its own whose plans are not discarded by its uses, so that what it caches stays for the whole test. */
async function onOneConnection(database: TestDatabase, work: (db: PostgresDatabase) => Promise<void>): Promise<void> {
  const db = new PostgresDatabase({
    connectionString: database.connectionString,
    maxConnections: 1,
    usesBetweenPlanDiscards: 1_000_000,
  });
  try {
    await work(db);
  } finally {
    await db.close();
  }
}

/**
 * A read spelled two ways, planned at each call and cached: both run on the small table until PostgreSQL has
 * settled on their plans, then the table grows; the whole-table scans of five more calls of each.
 */
async function scansOnceGrown(
  db: PostgresDatabase,
  table: string,
  reads: {
    expected: readonly string[];
    perCall: (tx: SqlExecutor) => Promise<string[]>;
    cached: (tx: SqlExecutor) => Promise<string[]>;
    grow: () => Promise<void>;
  },
): Promise<{ perCall: number; cached: number }> {
  const scansOf = (read: (tx: SqlExecutor) => Promise<string[]>) =>
    db.transaction((tx) => sequentialScansBy(tx, table, async () => expect(await read(tx)).toEqual(reads.expected)));
  for (let call = 0; call < 12; call++) for (const read of [reads.perCall, reads.cached]) await scansOf(read);
  await reads.grow();
  const after = { perCall: 0, cached: 0 };
  for (let call = 0; call < 5; call++) {
    after.perCall += await scansOf(reads.perCall);
    after.cached += await scansOf(reads.cached);
  }
  return after;
}

/** Sequential scans of the table by the work, in its transaction (the view counts what this backend has not reported yet). */
async function sequentialScansBy(tx: SqlExecutor, table: string, work: () => Promise<unknown>): Promise<number> {
  const scans = async () =>
    Number(
      (
        await tx.query<{ seq_scan: string }>('SELECT seq_scan::text FROM pg_stat_xact_user_tables WHERE relname = $1', [
          table,
        ])
      )[0].seq_scan,
    );
  const before = await scans();
  await work();
  return (await scans()) - before;
}
