import { PostgresDatabase } from '../../src/infrastructure/sql/postgres-database';
import { SQLSTATE, sqlStateOf } from '../../src/infrastructure/sql/sql-database';
import { createTestDatabase, TestDatabase } from '../support/postgres-test-database';

/**
 * A statement the server refuses (a unique violation: a stale append, a repeated key) must not cost a connection:
 * a new one costs PostgreSQL a backend start and every statement parsed and planned again, and where processes
 * race for the same rows (several HTTP processes) refusals are routine. A connection that broke is replaced.
 */
describe('connections on PostgreSQL', () => {
  let database: TestDatabase;
  let db: PostgresDatabase;

  beforeAll(async () => {
    database = await createTestDatabase('connections');
    // One connection in the pool the statements below use, so the backend seen is the one they ran on.
    db = new PostgresDatabase({ connectionString: database.connectionString, maxConnections: 1 });
    await db.exec('CREATE TABLE once (id text PRIMARY KEY)');
  });
  afterAll(async () => {
    await db.close();
    await database.drop();
  });

  const backend = async (): Promise<number> =>
    (await db.query<{ pid: number }>('SELECT pg_backend_pid() AS pid WHERE $1::int = 1', [1]))[0].pid;

  it('are kept after a statement the server refused', async () => {
    const before = await backend();
    await db.query('INSERT INTO once (id) VALUES ($1)', ['a']);
    const refused = await db.query('INSERT INTO once (id) VALUES ($1)', ['a']).catch((error: unknown) => error);
    expect(sqlStateOf(refused)).toBe(SQLSTATE.uniqueViolation);
    const refusedAgain = await db.query('SELECT 1 / $1::int', [0]).catch((error: unknown) => error);
    expect(sqlStateOf(refusedAgain)).toBe('22012');
    expect(await backend()).toBe(before);
  });

  it('are replaced when the server ends them', async () => {
    const before = await backend();
    const ended = await db
      .query('SELECT pg_terminate_backend(pg_backend_pid()) WHERE $1::int = 1', [1])
      .catch((error: unknown) => error);
    expect(ended).toBeInstanceOf(Error);
    const after = await backend();
    expect(after).not.toBe(before);
  });
});
