import { Client } from 'pg';
import { publicStatusClauses } from '../../../src/infrastructure/read-models/public-status-clauses';
import { PUBLIC_STATUS, TransactionStatus, publicStatusOf } from '../../../src/domain/transaction/transaction.decider';

const adminUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

describe('the status filter of the order list, in SQL', () => {
  it('selects, for every internal state with and without its refund, the status the order itself shows', async () => {
    const client = new Client({ connectionString: adminUrl });
    await client.connect();
    try {
      const clauses = publicStatusClauses();
      const statuses = Object.keys(PUBLIC_STATUS) as TransactionStatus[];
      for (const status of statuses)
        for (const refundedAt of [null, '2026-11-28T00:00:00.000Z']) {
          const { rows } = await client.query<{ pending: boolean; success: boolean; failed: boolean }>(
            `SELECT ${clauses.PENDING} AS pending, ${clauses.SUCCESS} AS success, ${clauses.FAILED} AS failed
               FROM (VALUES ($1::text, $2::timestamptz)) AS o(status, refunded_at)`,
            [status, refundedAt],
          );
          const shown = publicStatusOf(status, refundedAt);
          expect([status, refundedAt, rows[0]]).toEqual([
            status,
            refundedAt,
            { pending: shown === 'PENDING', success: shown === 'SUCCESS', failed: shown === 'FAILED' },
          ]);
        }
    } finally {
      await client.end();
    }
  });
});
