import { SqlRateLimiter } from '../../../src/infrastructure/rate-limit/sql-rate-limiter';
import { RATE_LIMIT_BUCKETS_SCHEMA } from '../../../src/infrastructure/rate-limit/sql-token-buckets';
import { PostgresDatabase } from '../../../src/infrastructure/sql/postgres-database';
import { TestDatabase, createTestDatabase } from '../../support/postgres-test-database';

/**
 * Concurrent requests share statements (rate-limit upserts, idempotency rows, appends) and
 * some commit without waiting for the disk. These check what that must not change.
 */
describe('statements shared by concurrent requests, on PostgreSQL', () => {
  let database: TestDatabase;
  const opened: PostgresDatabase[] = [];
  const open = (): PostgresDatabase => {
    const db = new PostgresDatabase({ connectionString: database.connectionString, maxConnections: 4 });
    opened.push(db);
    return db;
  };

  beforeAll(async () => {
    database = await createTestDatabase('shared_statements');
    const db = open();
    await db.exec(RATE_LIMIT_BUCKETS_SCHEMA.sql);
  });

  afterAll(async () => {
    for (const db of opened) await db.close();
    await database.drop();
  });

  it('counts 90 hits on three keys from two processes at once exactly: each key admits its limit of 25 once each, and counts none of the 5 it refuses', async () => {
    const processes = [
      new SqlRateLimiter(open().withAsynchronousCommit()),
      new SqlRateLimiter(open().withAsynchronousCommit()),
    ];
    const now = new Date('2026-11-22T10:00:30Z');
    const buckets = ['key:a', 'key:b', 'key:c'];
    const hits = Array.from({ length: 90 }, (_, index) => ({
      bucket: buckets[index % 3],
      limiter: processes[index % 2],
    }));
    const decisions = await Promise.all(hits.map(({ bucket, limiter }) => limiter.hit(bucket, 25, now)));
    for (const bucket of buckets) {
      const mine = decisions.filter((_, index) => hits[index].bucket === bucket);
      const remainingWhenAllowed = mine.filter((decision) => decision.allowed).map((decision) => decision.remaining);
      expect(remainingWhenAllowed.sort((a, b) => a - b)).toEqual(Array.from({ length: 25 }, (_, index) => index));
      expect(mine.filter((decision) => !decision.allowed)).toHaveLength(5);
    }
    // Each bucket holds what it admitted, the refused hits none: empty until a minute from now.
    const rows = await open().query<{ bucket: string; tat: number }>(
      'SELECT bucket, tat FROM rate_limit_buckets ORDER BY bucket',
    );
    expect(rows).toEqual(buckets.map((bucket) => ({ bucket, tat: now.getTime() + 60_000 })));
  });

  it('commits without waiting for the disk only on the view asked for, and closes it with its owner', async () => {
    const db = open();
    const relaxed = db.withAsynchronousCommit();
    expect(await db.query('SHOW synchronous_commit')).toEqual([{ synchronous_commit: 'on' }]);
    expect(await relaxed.query('SHOW synchronous_commit')).toEqual([{ synchronous_commit: 'off' }]);
    await relaxed.close();
    expect(await relaxed.query('SELECT 1 AS one')).toEqual([{ one: 1 }]);
    await db.close();
    await expect(relaxed.query('SELECT 1 AS one')).rejects.toThrow();
  });
});
