import { randomUUID } from 'node:crypto';
import { applySchema } from '../../../src/infrastructure/sql/migrations';
import { PostgresDatabase } from '../../../src/infrastructure/sql/postgres-database';
import { SqlDatabase } from '../../../src/infrastructure/sql/sql-database';
import { ordersProjection } from '../../../src/infrastructure/read-models/orders.projection';
import { SqlReadModels } from '../../../src/infrastructure/read-models/sql-read-models';
import { createTestDatabase, TestDatabase } from '../../support/postgres-test-database';
import { sqlOf } from '../../support/ledger';
import { acrossReadModelUpgrade } from '../../support/read-model-upgrade';
import { SANDBOX_PHONES } from '../../support/test-service';

/** rm_orders as databases made before held orders were marked by `held_at` have it. */
const ORDERS_BEFORE_HELD_AT = `
CREATE TABLE rm_orders (
  order_id text PRIMARY KEY, partner_id text NOT NULL, environment text NOT NULL, kind text NOT NULL, status text NOT NULL,
  amount numeric(20, 4) NOT NULL, currency text NOT NULL, product jsonb NOT NULL, reference text, balance_after numeric(20, 4) NOT NULL,
  operator_ref text, settled_at timestamptz, refunded_at timestamptz, failure_reason text, created_at timestamptz NOT NULL, updated_at timestamptz NOT NULL
);
CREATE INDEX rm_orders_held ON rm_orders (status, created_at) WHERE status = 'DISPUTED';
INSERT INTO rm_orders VALUES
  ('ord_held', 'ptn_a', 'sandbox', 'topup', 'DISPUTED', 10, 'INR', '{"kind":"topup"}', NULL, 990, NULL, NULL, NULL, NULL, '2026-01-01T00:00:00Z', '2026-01-01T00:16:00Z'),
  ('ord_done', 'ptn_a', 'sandbox', 'topup', 'SUCCESS', 10, 'INR', '{"kind":"topup"}', NULL, 980, 'op-1', '2026-01-01T00:00:01Z', NULL, NULL, '2026-01-01T00:00:01Z', '2026-01-01T00:00:01Z');
`;

type Opened = { db: SqlDatabase; close(): Promise<void> };

const STORES: [string, () => Promise<Opened>][] = [
  [
    'postgres',
    async () => {
      const database: TestDatabase = await createTestDatabase('orders_upgrade');
      const db = new PostgresDatabase({
        connectionString: database.connectionString,
        maxConnections: 2,
        applicationName: 'test',
      });
      return {
        db,
        close: async () => {
          await db.close();
          await database.drop();
        },
      };
    },
  ],
];

describe.each(STORES)('the orders read model of an older database (%s)', (_name, open) => {
  let opened: Opened;
  beforeEach(async () => {
    opened = await open();
  });
  afterEach(() => opened.close());

  it('marks orders already held when it gains held_at, so operators still find them, and starts the service again without change', async () => {
    await opened.db.exec(ORDERS_BEFORE_HELD_AT);
    await applySchema(opened.db, [ordersProjection.schema]);
    const readModels = new SqlReadModels(opened.db);
    expect((await readModels.heldOrders(10)).map((order) => order.orderId)).toEqual(['ord_held']);

    // The next start runs the script again: nothing changes, and the old index is gone.
    await applySchema(opened.db, [ordersProjection.schema]);
    expect((await readModels.heldOrders(10)).map((order) => order.orderId)).toEqual(['ord_held']);
    const indexes = await opened.db.query<{ indexname: string }>(
      `SELECT indexname FROM pg_indexes WHERE tablename = 'rm_orders' ORDER BY indexname`,
    );
    expect(indexes.map((row) => row.indexname)).toEqual([
      'rm_orders_by_given_reference',
      'rm_orders_by_partner',
      'rm_orders_created_ranges',
      'rm_orders_held_since',
      'rm_orders_pkey',
    ]);
  });
});

describe('the orders read model found by reference', () => {
  let database: TestDatabase;
  let db: PostgresDatabase;
  beforeAll(async () => {
    database = await createTestDatabase('orders_reference');
    db = new PostgresDatabase({ connectionString: database.connectionString, maxConnections: 2 });
    await applySchema(db, [ordersProjection.schema]);
    await db.exec(`
      INSERT INTO rm_orders (order_id, partner_id, environment, kind, status, amount, currency, product, reference,
                             balance_after, created_at, updated_at)
      SELECT 'ord_' || n, 'ptn_a', 'sandbox', 'topup', 'SUCCESS', 10, 'INR', '{"kind":"topup"}',
             CASE WHEN n % 100 = 0 THEN 'inv-' || n END, 990, now(), now()
        FROM generate_series(1, 20000) AS n;`);
    await db.exec('VACUUM ANALYZE rm_orders');
  });
  afterAll(async () => {
    await db.close();
    await database.drop();
  });

  it('keeps an index entry only for orders with a reference, and the listing by reference uses it', async () => {
    const [entries] = await db.query<{ entries: number }>(
      `SELECT reltuples::int AS entries FROM pg_class WHERE relname = 'rm_orders_by_given_reference'`,
    );
    expect(entries.entries).toBe(200);
    const readModels = new SqlReadModels(db);
    const found = await readModels.orders({
      partnerId: 'ptn_a',
      environment: 'sandbox',
      reference: 'inv-700',
      limit: 10,
    });
    expect(found.map((order) => order.orderId)).toEqual(['ord_700']);
    // The plan a cached statement would keep, whatever the reference: the partial index serves `reference = $3`.
    const plan = await db.transaction(async (tx) => {
      await tx.query('SET LOCAL plan_cache_mode = force_generic_plan');
      await tx.query(
        `PREPARE by_reference(text, text, text) AS
           SELECT order_id FROM rm_orders WHERE partner_id = $1 AND environment = $2 AND reference = $3
            ORDER BY created_at DESC, order_id DESC LIMIT 10`,
      );
      const rows = await tx.query<{ 'QUERY PLAN': string }>(
        `EXPLAIN EXECUTE by_reference('ptn_a', 'sandbox', 'inv-700')`,
      );
      await tx.query('DEALLOCATE by_reference');
      return rows.map((row) => row['QUERY PLAN']).join('\n');
    });
    expect(plan).toContain('rm_orders_by_given_reference');
  });
});

describe('the orders read model of schema version 2', () => {
  it('is rebuilt with the index of given references, and finds the same orders by reference', async () => {
    await acrossReadModelUpgrade('orders', 2, {
      before: async (older) => {
        const { sandboxKey: key } = await older.createPartner('IN', 'Orders v2');
        for (const reference of ['inv-1', null, 'inv-2'])
          await older.topup(
            key,
            { operator_id: 101, phone: SANDBOX_PHONES.IN('0001'), amount: 100, ...(reference ? { reference } : {}) },
            `orders-${randomUUID()}`,
          );
        await older.settle();
        const found = (await older.partner('GET', '/transactions?reference=inv-2', key)).body;
        expect(found.transactions).toHaveLength(1);
        return { key, found, all: (await older.partner('GET', '/transactions', key)).body };
      },
      // As version 2 left it: every order in the reference index.
      downgrade: async (sql) => {
        await sql.query('DROP INDEX rm_orders_by_given_reference');
        await sql.query('CREATE INDEX rm_orders_by_reference ON rm_orders (partner_id, environment, reference)');
      },
      after: async (upgraded, before, rebuilds) => {
        expect(rebuilds).toHaveLength(1);
        expect((await upgraded.partner('GET', '/transactions?reference=inv-2', before.key)).body).toEqual(before.found);
        expect((await upgraded.partner('GET', '/transactions', before.key)).body).toEqual(before.all);
        const indexes = await sqlOf(upgraded).query<{ indexdef: string }>(
          `SELECT indexdef FROM pg_indexes WHERE tablename = 'rm_orders' AND indexdef LIKE '%reference%'`,
        );
        expect(indexes.map((row) => row.indexdef)).toEqual([
          expect.stringMatching(
            /rm_orders_by_given_reference .*\(partner_id, environment, reference\) WHERE \(reference IS NOT NULL\)$/,
          ),
        ]);
      },
    });
  });
});
