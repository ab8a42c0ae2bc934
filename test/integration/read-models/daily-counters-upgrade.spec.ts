import { randomUUID } from 'node:crypto';
import { PROJECTION_ADMIN } from '../../../src/application/ports/projections.port';
import { SqlProjectionAdmin } from '../../../src/infrastructure/projections/sql-projection-admin';
import { sqlOf } from '../../support/ledger';
import { createTestDatabase } from '../../support/postgres-test-database';
import { SANDBOX_PHONES, TestService } from '../../support/test-service';

interface CounterRow {
  outcome: string;
  orders: string;
  amount: string;
  settle_ms_buckets: string[];
}

const counters = (service: TestService) =>
  sqlOf(service).query<CounterRow>(
    `SELECT outcome, orders::text AS orders, amount::text AS amount, settle_ms_buckets::text[] AS settle_ms_buckets
       FROM rm_order_daily_stats ORDER BY day, environment, currency, operator, provider, outcome`,
  );

/**
 * The overview's daily counters keep the position of the last event each row counted (version 2), so that applying
 * an event again counts nothing; a version-1 table is given the columns at start and rebuilt with the same counts.
 */
describe('the daily counters of an existing database', () => {
  it('are rebuilt from the log at the upgrade with the same counts, and go on counting each order once', async () => {
    const database = await createTestDatabase('daily_v1');
    let older: TestService | null = null;
    let upgraded: TestService | null = null;
    try {
      older = await TestService.start({ store: 'postgres', databaseUrl: database.connectionString });
      const { sandboxKey: key } = await older.createPartner('IN', 'Counters v1');
      const topup = (service: TestService, phone: string) =>
        service.topup(key, { operator_id: 101, phone: SANDBOX_PHONES.IN(phone), amount: 100 }, `daily-${randomUUID()}`);
      for (const phone of ['0001', '0002']) await topup(older, phone);
      await older.settle();
      const before = await counters(older);
      expect(before.map((row) => [row.outcome, row.orders])).toEqual([
        ['failed', '1'],
        ['placed', '2'],
        ['refunded', '1'],
        ['succeeded', '1'],
      ]);
      // As version 1 left it: no position per row.
      await sqlOf(older).query(
        'ALTER TABLE rm_order_daily_stats DROP COLUMN counted_commit, DROP COLUMN counted_prepare',
      );
      await sqlOf(older).query("UPDATE projection_versions SET schema_version = 1 WHERE name = 'order-daily-stats'");
      await older.close();
      older = null;

      upgraded = await TestService.start({ store: 'postgres', databaseUrl: database.connectionString });
      const started = await sqlOf(upgraded).query<{ rebuild_id: string }>(
        `SELECT rebuild_id FROM projection_rebuilds WHERE projection = 'order-daily-stats'`,
      );
      expect(started).toHaveLength(1);
      await upgraded.app.get<SqlProjectionAdmin>(PROJECTION_ADMIN).whenFinished(started[0].rebuild_id);
      expect(await counters(upgraded)).toEqual(before);
      const unmarked = await sqlOf(upgraded).query<{ n: number }>(
        'SELECT count(*)::int AS n FROM rm_order_daily_stats WHERE counted_commit = 0',
      );
      expect(unmarked).toEqual([{ n: 0 }]);

      await topup(upgraded, '0001');
      await upgraded.settle();
      expect((await counters(upgraded)).map((row) => [row.outcome, row.orders])).toEqual([
        ['failed', '1'],
        ['placed', '3'],
        ['refunded', '1'],
        ['succeeded', '2'],
      ]);
    } finally {
      await older?.close();
      await upgraded?.close();
      await database.drop();
    }
  });
});
