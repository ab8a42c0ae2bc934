import { applySchema } from '../../../src/infrastructure/sql/migrations';
import { PostgresDatabase } from '../../../src/infrastructure/sql/postgres-database';
import { SqlDatabase } from '../../../src/infrastructure/sql/sql-database';
import { ordersProjection } from '../../../src/infrastructure/read-models/orders.projection';
import { SqlReadModels } from '../../../src/infrastructure/read-models/sql-read-models';
import { createTestDatabase, TestDatabase } from '../../support/postgres-test-database';

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
      'rm_orders_by_partner',
      'rm_orders_by_reference',
      'rm_orders_created_ranges',
      'rm_orders_held_since',
      'rm_orders_pkey',
    ]);
  });
});
