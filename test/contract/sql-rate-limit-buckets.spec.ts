import { migrateServiceDatabase } from '../../src/infrastructure/open-database';
import { SqlRateLimiter } from '../../src/infrastructure/rate-limit/sql-rate-limiter';
import { PostgresDatabase } from '../../src/infrastructure/sql/postgres-database';
import { createTestDatabase, TestDatabase } from '../support/postgres-test-database';

/** The rate-limit buckets on PostgreSQL as the migrations leave them (migration 17: no index on the refill time). */
describe('SQL rate-limit buckets', () => {
  let database: TestDatabase;
  let db: PostgresDatabase;
  let limiter: SqlRateLimiter;
  const at = (second: number) => new Date(Date.UTC(2026, 10, 29, 12, 0, second));

  beforeAll(async () => {
    database = await createTestDatabase('buckets');
    db = new PostgresDatabase({ connectionString: database.connectionString, maxConnections: 2 });
    await migrateServiceDatabase(db);
    limiter = new SqlRateLimiter(db);
  });
  afterAll(async () => {
    await db.close();
    await database.drop();
  });

  it('counts a bucket down and refuses once it is empty', async () => {
    const decisions = [];
    for (let hit = 0; hit < 4; hit++) decisions.push(await limiter.hit('ptn_count:sandbox', 3, at(0)));
    expect(decisions.map((decision) => [decision.allowed, decision.remaining])).toEqual([
      [true, 2],
      [true, 1],
      [true, 0],
      [false, 0],
    ]);
  });

  it('forgets the buckets that are full again before the given time and keeps the others', async () => {
    await limiter.hit('ptn_idle:sandbox', 60, at(0));
    await limiter.hit('ptn_busy:sandbox', 60, at(50));
    // One request of 60 per minute is back after a second: the idle bucket is full from 12:00:01.
    await limiter.purgeBefore(at(30));
    const buckets = await db.query<{ bucket: string }>(
      `SELECT bucket FROM rate_limit_buckets WHERE bucket LIKE 'ptn_idle%' OR bucket LIKE 'ptn_busy%' ORDER BY bucket`,
    );
    expect(buckets).toEqual([{ bucket: 'ptn_busy:sandbox' }]);
  });

  it('takes from a bucket by rewriting its row in place, with no index entry', async () => {
    await limiter.hit('ptn_hot:sandbox', 1_000, at(0));
    const updates = await db.transaction(async (tx) => {
      const take = new SqlRateLimiter(tx);
      for (let hit = 1; hit <= 20; hit++) await take.hit('ptn_hot:sandbox', 1_000, at(hit));
      const [counted] = await tx.query<{ updated: string; in_place: string }>(
        `SELECT n_tup_upd::text AS updated, n_tup_hot_upd::text AS in_place
           FROM pg_stat_xact_user_tables WHERE relname = 'rate_limit_buckets'`,
      );
      return counted;
    });
    // The view also counts what this connection did before the transaction and has not reported yet.
    expect(Number(updates.updated)).toBeGreaterThanOrEqual(20);
    expect(updates.in_place).toBe(updates.updated);
  });
});
