import { randomUUID } from 'node:crypto';
import { sqlOf } from '../../support/ledger';
import { acrossReadModelUpgrade } from '../../support/read-model-upgrade';
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
    const topup = (service: TestService, key: string, phone: string) =>
      service.topup(key, { operator_id: 101, phone: SANDBOX_PHONES.IN(phone), amount: 100 }, `daily-${randomUUID()}`);
    await acrossReadModelUpgrade('order-daily-stats', 1, {
      before: async (older) => {
        const { sandboxKey: key } = await older.createPartner('IN', 'Counters v1');
        for (const phone of ['0001', '0002']) await topup(older, key, phone);
        await older.settle();
        const rows = await counters(older);
        expect(rows.map((row) => [row.outcome, row.orders])).toEqual([
          ['failed', '1'],
          ['placed', '2'],
          ['refunded', '1'],
          ['succeeded', '1'],
        ]);
        return { key, rows };
      },
      // As version 1 left it: no position per row.
      downgrade: async (sql) => {
        await sql.query('ALTER TABLE rm_order_daily_stats DROP COLUMN counted_commit, DROP COLUMN counted_prepare');
      },
      after: async (upgraded, before, rebuilds) => {
        expect(rebuilds).toHaveLength(1);
        expect(await counters(upgraded)).toEqual(before.rows);
        const unmarked = await sqlOf(upgraded).query<{ n: number }>(
          'SELECT count(*)::int AS n FROM rm_order_daily_stats WHERE counted_commit = 0',
        );
        expect(unmarked).toEqual([{ n: 0 }]);

        await topup(upgraded, before.key, '0001');
        await upgraded.settle();
        expect((await counters(upgraded)).map((row) => [row.outcome, row.orders])).toEqual([
          ['failed', '1'],
          ['placed', '3'],
          ['refunded', '1'],
          ['succeeded', '2'],
        ]);
      },
    });
  });
});
