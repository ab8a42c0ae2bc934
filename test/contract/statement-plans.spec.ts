import { PostgresDatabase } from '../../src/infrastructure/sql/postgres-database';
import { createTestDatabase, TestDatabase } from '../support/postgres-test-database';

/**
 * Statements are prepared once per connection but planned with their values at each call: a plan
 * cached while a table was small must not keep scanning it whole once it has grown (autovacuum,
 * which would refresh the statistics, is off for the table here, as it may be on a server).
 */
describe('statement plans on PostgreSQL', () => {
  let database: TestDatabase;
  let db: PostgresDatabase;

  beforeAll(async () => {
    database = await createTestDatabase('plans');
    db = new PostgresDatabase({ connectionString: database.connectionString, maxConnections: 2 });
  });
  afterAll(async () => {
    await db.close();
    await database.drop();
  });

  it('are made for every call on both pools', async () => {
    const [synchronous] = await db.query<{ plan_cache_mode: string }>('SHOW plan_cache_mode');
    const [asynchronous] = await db.withAsynchronousCommit().query<{ plan_cache_mode: string }>('SHOW plan_cache_mode');
    expect([synchronous.plan_cache_mode, asynchronous.plan_cache_mode]).toEqual([
      'force_custom_plan',
      'force_custom_plan',
    ]);
  });

  it('use the index of a table that grew after the statement was first run, with no new statistics', async () => {
    await db.exec(`
      CREATE TABLE grows (id text PRIMARY KEY, revision bigint NOT NULL) WITH (autovacuum_enabled = false);
      INSERT INTO grows SELECT 's' || n, 0 FROM generate_series(1, 5) AS n;`);
    // The shape of the append's stream update: a batch joined to a table that grows.
    const bump = `UPDATE grows SET revision = grows.revision + 1
                    FROM jsonb_to_recordset($1::jsonb) AS wanted(id text)
                   WHERE grows.id = wanted.id`;
    // Sequential scans of the table by one call (the view counts what this backend has not reported yet).
    const scansOfBump = (ids: string[]) =>
      db.transaction(async (tx) => {
        const scans = async () =>
          Number(
            (
              await tx.query<{ seq_scan: string }>(
                `SELECT seq_scan::text FROM pg_stat_xact_user_tables WHERE relname = 'grows'`,
              )
            )[0].seq_scan,
          );
        const before = await scans();
        await tx.query(bump, [JSON.stringify(ids.map((id) => ({ id })))]);
        return (await scans()) - before;
      });
    // Enough calls on the small table for PostgreSQL to settle on a cached plan, were it allowed to.
    for (let call = 0; call < 12; call++) await scansOfBump(['s1', 's2']);
    await db.exec(`INSERT INTO grows SELECT 's' || n, 0 FROM generate_series(6, 200000) AS n`);
    expect(await scansOfBump(['s1', 's150000'])).toBe(0);
    const [bumped] = await db.query<{ revision: string }>(`SELECT revision::text FROM grows WHERE id = 's150000'`);
    expect(bumped.revision).toBe('1');
  });
});
