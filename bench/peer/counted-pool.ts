import { Pool, PoolClient, QueryConfig, QueryResultRow } from 'pg';

/** What the peer sent to PostgreSQL: every SQL statement, and every wait for an answer (a round trip). */
export const sqlCounters = { statements: 0, roundTrips: 0 };

/** One call to the driver is one round trip and, here, one statement: the peer never sends several in one string. */
const counted = (): void => {
  sqlCounters.statements += 1;
  sqlCounters.roundTrips += 1;
};

export interface PeerDb {
  query<Row extends QueryResultRow>(config: QueryConfig): Promise<Row[]>;
  transaction<T>(
    work: (query: <Row extends QueryResultRow>(config: QueryConfig) => Promise<Row[]>) => Promise<T>,
  ): Promise<T>;
  close(): Promise<void>;
}

/**
 * A pg pool whose statements are prepared once per connection (the peer names them all) and left
 * to PostgreSQL's default plan caching: every statement of the peer finds its rows by primary key
 * or by the outbox's due time, so a cached generic plan is the plan whatever the tables' sizes.
 * (The service forces a plan per call because its batch statements join JSON documents to tables
 * whose statistics are never refreshed here; forcing it on the peer cost it about 0.28 ms of
 * PostgreSQL CPU per topup in probes, a third of PostgreSQL's share.) `asynchronousCommit` turns
 * synchronous_commit off for the session, as the service does for its rate-limit counts.
 */
export function peerDb(connectionString: string, max: number, name: string, asynchronousCommit = false): PeerDb {
  const pool = new Pool({
    connectionString,
    max,
    application_name: name,
    options: `-c plan_cache_mode=auto${asynchronousCommit ? ' -c synchronous_commit=off' : ''}`,
  });
  pool.on('error', () => undefined);
  const run = async <Row extends QueryResultRow>(client: Pool | PoolClient, config: QueryConfig): Promise<Row[]> => {
    counted();
    return (await client.query<Row>(config)).rows;
  };
  return {
    query: (config) => run(pool, config),
    async transaction(work) {
      const client = await pool.connect();
      let broken: Error | undefined;
      try {
        counted();
        await client.query('BEGIN');
        const result = await work((config) => run(client, config));
        counted();
        await client.query('COMMIT');
        return result;
      } catch (error) {
        counted();
        await client.query('ROLLBACK').catch((rollback: unknown) => {
          broken = rollback instanceof Error ? rollback : new Error(String(rollback));
        });
        throw error;
      } finally {
        client.release(broken);
      }
    },
    close: () => pool.end(),
  };
}
