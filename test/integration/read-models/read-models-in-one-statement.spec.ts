import { Client } from 'pg';
import { RecordedEvent } from '../../../src/application/ports/event-store.port';
import { CHECKPOINT_SCHEMA, checkpoints } from '../../../src/infrastructure/projections/checkpoint-store';
import { Projector } from '../../../src/infrastructure/projections/projector';
import { BatchScope, SqlProjection, applyEvents } from '../../../src/infrastructure/projections/sql-projection';
import { balanceProjection } from '../../../src/infrastructure/read-models/balance.projection';
import { OrderRowEvent } from '../../../src/infrastructure/read-models/orders.projection';
import {
  READ_MODEL_TABLES,
  readModelProjections,
} from '../../../src/infrastructure/read-models/read-model-projections';
import { applySchema } from '../../../src/infrastructure/sql/migrations';
import { PostgresDatabase } from '../../../src/infrastructure/sql/postgres-database';
import { SqlExecutor } from '../../../src/infrastructure/sql/sql-database';
import { orderRowEvents } from '../../support/order-row-events';
import { createTestDatabase, TestDatabase } from '../../support/postgres-test-database';
import { TestLog, recordedStatements } from '../../support/projector-harness';
import { waitForAsync } from '../../support/wait-for';

/**
 * The read models' hot projections (balances, orders, events feed, daily counters) let the projector send their
 * writes with the checkpoint's move as one statement (decision 0159): no transaction, the same rows as applied in
 * one, and nothing kept when another process moved the checkpoint first.
 */
const PARTNER = 'ptr_one_statement';
const { wallet: WALLET, recorded, debit, settled, failed } = orderRowEvents(PARTNER);
const elsewhere = orderRowEvents('ptr_elsewhere');
const swapped = orderRowEvents('ptr_swapped');
const polled = orderRowEvents('ptr_polled');
const t = (second: number) => new Date(Date.UTC(2026, 10, 29, 22, 0, second)).toISOString();

const READ_MODEL_ROWS = {
  balances: 'SELECT partner_id, available::text, revision::text FROM rm_balances ORDER BY partner_id',
  orders: 'SELECT order_id, status, operator_ref, settled_at, failure_reason FROM rm_orders ORDER BY order_id',
  feed: 'SELECT event_id, event, order_id, facts FROM rm_partner_events ORDER BY commit_position, prepare_position',
  counters: `SELECT day::text, outcome, orders::text, amount::text, settle_ms_buckets::text
               FROM rm_order_daily_stats ORDER BY day, outcome`,
};

const lockWaiters = async (db: SqlExecutor): Promise<number> =>
  (
    await db.query<{ waiting: number }>(
      `SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
    )
  )[0].waiting;

async function readModelRows(db: SqlExecutor): Promise<Record<string, unknown>> {
  const rows: Record<string, unknown> = {};
  for (const [name, sql] of Object.entries(READ_MODEL_ROWS)) rows[name] = await db.query(sql);
  return rows;
}

describe('the read models written with their checkpoint in one statement', () => {
  let databases: TestDatabase[];
  let deferred: PostgresDatabase;
  let inTransaction: PostgresDatabase;

  beforeAll(async () => {
    databases = [await createTestDatabase('one_statement'), await createTestDatabase('one_statement_tx')];
    [deferred, inTransaction] = databases.map(
      (database) => new PostgresDatabase({ connectionString: database.connectionString, maxConnections: 2 }),
    );
    for (const db of [deferred, inTransaction])
      await applySchema(db, [
        CHECKPOINT_SCHEMA,
        ...READ_MODEL_TABLES.map((tables) => tables.schema),
        { name: 'notes', sql: 'CREATE TABLE notes (note text)' },
      ]);
  });

  afterAll(async () => {
    await Promise.all([deferred, inTransaction].map((db) => db?.close()));
    await Promise.all(databases.map((database) => database.drop()));
  });

  const projections = readModelProjections();

  it('sends one statement per batch and leaves the rows a transaction applying the same events leaves', async () => {
    const log = new TestLog();
    const { db, statements } = recordedStatements(deferred);
    const projector = new Projector('read-models-one', projections, log, db);
    await projector.start();
    const batches = [
      [debit('ord_a', t(1), '990.00'), debit('ord_b', t(2), '980.00'), settled('ord_a', t(3))],
      [failed('ord_b', t(4)), debit('ord_c', t(5), '970.00')],
      [settled('ord_c', t(6))],
    ];

    for (const batch of batches) {
      log.events.push(...batch);
      statements.length = 0;
      expect(await projector.catchUp()).toBe(batch.length);
      // The orders' rows are read first (the feed and the counters use them), then one statement writes everything.
      expect(statements.filter((statement) => statement !== 'SELECT order_id, partner_id,')).toEqual(['WITH moved AS']);
      await inTransaction.transaction(async (tx) => {
        const scope = new BatchScope();
        for (const projection of projections) await applyEvents(projection, batch, tx, scope);
      });
    }

    expect(await checkpoints.read(deferred, 'read-models-one')).toEqual(batches[2][0].position);
    const rows = await readModelRows(deferred);
    expect(rows).toEqual(await readModelRows(inTransaction));
    expect(rows.orders).toEqual([
      expect.objectContaining({ order_id: 'ord_a', status: 'SUCCESS' }),
      expect.objectContaining({ order_id: 'ord_b', status: 'FAILED' }),
      expect.objectContaining({ order_id: 'ord_c', status: 'SUCCESS' }),
    ]);
    expect(rows.balances).toEqual([{ partner_id: PARTNER, available: '970.0000', revision: '5' }]);
  });

  it('keeps nothing of a batch whose checkpoint another process moved first, and goes on from there', async () => {
    const log = new TestLog();
    const projector = new Projector('read-models-two', [balanceProjection], log, deferred);
    await projector.start();
    log.events.push(elsewhere.debit('ord_d', t(7), '960.00'), elsewhere.debit('ord_e', t(8), '950.00'));
    // Another process applied the whole page meanwhile (and, for the test to see, wrote nothing).
    const last = log.events[1].position;
    await checkpoints.write(deferred, 'read-models-two', last);

    expect(await projector.catchUp()).toBe(0);
    expect(projector.position).toEqual(last);
    expect(await checkpoints.read(deferred, 'read-models-two')).toEqual(last);
    // This process's statement for the page (from no checkpoint) failed whole: its balance row is not there.
    expect(await deferred.query(`SELECT partner_id FROM rm_balances WHERE partner_id = 'ptr_elsewhere'`)).toEqual([]);

    log.events.push(elsewhere.debit('ord_f', t(9), '940.00'));
    expect(await projector.catchUp()).toBe(1);
    expect(await deferred.query(`SELECT available::text FROM rm_balances WHERE partner_id = 'ptr_elsewhere'`)).toEqual([
      { available: '940.0000' },
    ]);
  });

  it('for a minute after a race it lost, checks its moves in a transaction: the races it loses then are no errors for PostgreSQL to log', async () => {
    const log = new TestLog();
    const racing = orderRowEvents('ptr_racing');
    let otherProcessMovesTo: RecordedEvent['position'] | null = null;
    const { db, statements, failures } = recordedStatements(deferred, {
      // Another process moves the checkpoint just before this one's move reaches the server.
      before: async (statement) => {
        if (!otherProcessMovesTo || !statement.trimStart().startsWith('WITH moved AS')) return;
        await checkpoints.write(deferred, 'read-models-race', otherProcessMovesTo);
        otherProcessMovesTo = null;
      },
    });
    let clock = 0;
    const projector = new Projector('read-models-race', [balanceProjection], log, db, 500, () => clock);
    await projector.start();

    // The first race after a quiet time is lost by the one statement, which fails whole (one error).
    log.events.push(racing.debit('ord_r1', t(30), '990.00'));
    otherProcessMovesTo = log.events[0].position;
    expect(await projector.catchUp()).toBe(0);
    expect(failures).toEqual(['22012']);

    // The next ones within a minute count the move inside a transaction instead.
    clock += 30_000;
    log.events.push(racing.debit('ord_r2', t(31), '980.00'));
    otherProcessMovesTo = log.events[1].position;
    statements.length = 0;
    expect(await projector.catchUp()).toBe(0);
    expect(failures).toEqual(['22012']);
    expect(statements).toContain('BEGIN');
    expect(await deferred.query(`SELECT partner_id FROM rm_balances WHERE partner_id = 'ptr_racing'`)).toEqual([]);
    expect(await checkpoints.read(deferred, 'read-models-race')).toEqual(log.events[1].position);

    // A race it wins the same way keeps its writes with the move.
    log.events.push(racing.debit('ord_r3', t(32), '970.00'));
    statements.length = 0;
    expect(await projector.catchUp()).toBe(1);
    expect(statements.filter((statement) => statement === 'BEGIN' || statement === 'WITH moved AS')).toEqual([
      'BEGIN',
      'WITH moved AS',
    ]);
    expect(failures).toEqual(['22012']);
    expect(await deferred.query(`SELECT available::text FROM rm_balances WHERE partner_id = 'ptr_racing'`)).toEqual([
      { available: '970.0000' },
    ]);
    expect(await checkpoints.read(deferred, 'read-models-race')).toEqual(log.events[2].position);

    // A minute after the last race it lost, a batch is one statement again.
    clock += 60_001;
    log.events.push(racing.debit('ord_r4', t(33), '960.00'));
    statements.length = 0;
    expect(await projector.catchUp()).toBe(1);
    expect(statements).toEqual(['WITH moved AS']);
    expect(failures).toEqual(['22012']);
  });

  it("reads the stored checkpoint on a poll only when no batch confirmed it since the last one, and still finds another process's move", async () => {
    const log = new TestLog();
    const { db, statements } = recordedStatements(deferred);
    const projector = new Projector('read-models-poll', [balanceProjection], log, db);
    await projector.start();
    const checkpointReads = () => statements.filter((text) => text.startsWith('SELECT commit_position')).length;

    log.events.push(polled.debit('ord_p1', t(20), '990.00'));
    expect(await projector.catchUp()).toBe(1);
    // That batch moved the checkpoint from the position this process knew: the poll after it need not read it.
    statements.length = 0;
    projector.refreshOnPoll();
    log.events.push(polled.debit('ord_p2', t(21), '980.00'));
    expect(await projector.catchUp()).toBe(1);
    expect(checkpointReads()).toBe(0);

    // Two polls with no batch between them: the second reads it.
    projector.refreshOnPoll();
    projector.refreshOnPoll();
    statements.length = 0;
    expect(await projector.catchUp()).toBe(0);
    expect(checkpointReads()).toBe(1);

    // Another process applies the next page after this one's batch; the poll is skipped, and this process's next
    // move fails, reads the checkpoint and goes on from there without applying that page again.
    log.events.push(polled.debit('ord_p3', t(22), '970.00'));
    expect(await projector.catchUp()).toBe(1);
    log.events.push(polled.debit('ord_p4', t(23), '960.00'));
    await checkpoints.write(deferred, 'read-models-poll', log.events[log.events.length - 1].position);
    projector.refreshOnPoll();
    log.events.push(polled.debit('ord_p5', t(24), '950.00'));
    expect(await projector.catchUp()).toBe(1);
    expect(projector.position).toEqual(log.events[log.events.length - 1].position);
    // Only ord_p5's debit was applied here: ord_p4's page was the other process's.
  });

  it('goes through a read model swap that locks the checkpoint before the tables (a deadlock PostgreSQL ends)', async () => {
    const log = new TestLog();
    const projector = new Projector('read-models-swap', [balanceProjection], log, deferred);
    await projector.start();
    log.events.push(swapped.debit('ord_s', t(12), '920.00'));
    // What a blue/green switch does (blue-green-rebuild.ts): the live checkpoint's row first, then its tables.
    const swap = new Client({ connectionString: databases[0].connectionString });
    await swap.connect();
    try {
      await swap.query(`SET deadlock_timeout = '10s'`);
      await swap.query('BEGIN');
      await swap.query(`SELECT name FROM projection_checkpoints WHERE name = 'read-models-swap' FOR UPDATE`);
      const caughtUp = projector.catchUp();
      await waitForAsync(async () => (await lockWaiters(deferred)) > 0);
      // Each waits for the other; the projector's statement, waiting longer, is the one PostgreSQL fails.
      await swap.query('LOCK TABLE rm_balances IN ACCESS EXCLUSIVE MODE');
      await swap.query('COMMIT');
      expect(await caughtUp).toBe(1);
    } finally {
      await swap.end();
    }
    expect(await deferred.query(`SELECT available::text FROM rm_balances WHERE partner_id = 'ptr_swapped'`)).toEqual([
      { available: '920.0000' },
    ]);
  });

  it('applies a batch in a transaction when one of its projections reads or writes otherwise', async () => {
    // A read model of a kind the log does not have; as a projection of the log's events, typed as one.
    const notes = {
      name: 'notes',
      schemaVersion: 1,
      schema: { name: 'notes', sql: '' },
      handles: new Set(['TestNoted']),
      apply: async (event: RecordedEvent, tx: SqlExecutor) => {
        await tx.query('INSERT INTO notes (note) VALUES ($1)', [event.eventId]);
      },
    } as unknown as SqlProjection;
    const log = new TestLog();
    const { db, statements } = recordedStatements(deferred);
    const projector = new Projector('read-models-three', [balanceProjection, notes], log, db);
    await projector.start();

    log.events.push(debit('ord_g', t(9), '940.00'));
    statements.length = 0;
    await projector.catchUp();
    expect(statements).toEqual(['WITH moved AS']);

    const noted = recorded(WALLET, { type: 'TestNoted', data: {} } as unknown as OrderRowEvent, t(10));
    log.events.push(debit('ord_h', t(11), '930.00'), noted);
    statements.length = 0;
    await projector.catchUp();
    expect(statements).toEqual([
      'BEGIN',
      'UPDATE projection_checkpoints SET',
      'INSERT INTO rm_balances',
      'INSERT INTO notes',
      'COMMIT',
    ]);
    expect(await deferred.query('SELECT note FROM notes')).toEqual([{ note: noted.eventId }]);
  });
});
