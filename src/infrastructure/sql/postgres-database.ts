import { DatabaseError, Pool, PoolClient } from 'pg';
import { serviceMetrics } from '../metrics/service-metrics';
import { isConnectionFailure, translateConnectionFailure } from './connection-failure';
import { PlanFreshness } from './plan-freshness';
import { preparedQuery } from './prepared-statements';
import { SqlDatabase, SqlExecutor } from './sql-database';

interface PostgresOptions {
  connectionString: string;
  maxConnections?: number;
  applicationName?: string;
  /** How many times a connection is used before PostgreSQL's cached plans on it are discarded (plan-freshness.ts). */
  usesBetweenPlanDiscards?: number;
  /** Milliseconds since the epoch, for the seconds between plan discards (a test's clock). */
  now?: () => number;
}

/**
 * An idle connection is kept this long: a lull of a few seconds would otherwise end with new backends, every
 * statement parsed and planned again while the first requests after it wait (decision 0176).
 */
const IDLE_MILLISECONDS = 10 * 60_000;

export class PostgresDatabase implements SqlDatabase {
  private readonly pool: Pool;
  private readonly plans: PlanFreshness;
  private asynchronous: PostgresDatabase | null = null;

  constructor(
    private readonly options: PostgresOptions,
    synchronousCommit = true,
  ) {
    const total = options.maxConnections ?? 10;
    this.pool = new Pool({
      connectionString: options.connectionString,
      // maxConnections bounds both pools together: the synchronous one gets 60 %, the other the rest.
      max: synchronousCommit ? Math.max(1, Math.ceil(total * 0.6)) : Math.max(1, total - Math.ceil(total * 0.6)),
      application_name: options.applicationName ?? 'partner-recharge-service',
      // An abandoned transaction would hold back every catch-up reader (see docs/architecture.md).
      idle_in_transaction_session_timeout: 30_000,
      idleTimeoutMillis: IDLE_MILLISECONDS,
      // Kept idle for minutes: TCP keepalives stop a firewall or NAT in between from dropping it silently.
      keepAlive: true,
      options: `-c plan_cache_mode=auto${synchronousCommit ? '' : ' -c synchronous_commit=off'}`,
    });
    // An idle client can lose its server (restart, failover); the pool replaces it, so only log-worthy.
    this.pool.on('error', () => undefined);
    this.plans = new PlanFreshness(options.usesBetweenPlanDiscards, options.now);
    // A connection that breaks while checked out (server restart) also emits 'error' on its client;
    // unheard, that would be an uncaught exception. The query in flight is rejected and handled.
    this.pool.on('connect', (client) => client.on('error', () => undefined));
  }

  withAsynchronousCommit(): SqlDatabase {
    this.asynchronous ??= new PostgresDatabase(this.options, false);
    return this.asynchronous.asOwnedView();
  }

  /**
   * Not `pool.query`, which closes the connection after any failed statement: a statement the server refused (a
   * unique violation, a stale append) leaves its connection as good as before, and a new one would cost PostgreSQL a
   * backend start and every statement parsed and planned again. Only a connection that failed is replaced.
   */
  async query<Row extends object>(text: string, params: readonly unknown[] = []): Promise<Row[]> {
    serviceMetrics.sqlStatements.inc();
    const client = await this.pool.connect().catch(translateConnectionFailure);
    let broken: Error | undefined = undefined;
    try {
      await this.plans.checkedOut(client);
      const result = await client.query(preparedQuery(text, params));
      return result.rows as Row[];
    } catch (error) {
      if (!refusedByServer(error)) broken = error instanceof Error ? error : new Error(String(error));
      return translateConnectionFailure(error);
    } finally {
      client.release(broken);
    }
  }

  /** A connection lost mid-transaction rolls it back on the server: nothing of it is committed. */
  async transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    const client = await this.begin();
    let broken: unknown = undefined;
    try {
      const result = await work(clientExecutor(client));
      serviceMetrics.sqlStatements.inc();
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch((rollbackError: unknown) => (broken = rollbackError));
      return translateConnectionFailure(error);
    } finally {
      // A client whose connection failed is discarded rather than handed to the next caller.
      client.release(broken instanceof Error ? broken : undefined);
    }
  }

  /** A client with an open transaction; a connection whose server went away fails at BEGIN and BEGIN is tried once more on a fresh one. */
  private async begin(): Promise<PoolClient> {
    for (let attempt = 1; ; attempt++) {
      const client = await this.pool.connect().catch(translateConnectionFailure);
      try {
        await this.plans.checkedOut(client);
        serviceMetrics.sqlStatements.inc();
        await client.query('BEGIN');
        return client;
      } catch (error) {
        client.release(error instanceof Error ? error : new Error(String(error)));
        if (attempt >= 2 || !isConnectionFailure(error)) return translateConnectionFailure(error);
      }
    }
  }

  async exec(script: string): Promise<void> {
    await this.pool.query(script).catch(translateConnectionFailure);
  }

  async close(): Promise<void> {
    await this.asynchronous?.close();
    this.asynchronous = null;
    if (!this.pool.ended) await this.pool.end();
  }

  private asOwnedView(): SqlDatabase {
    return {
      query: (text, params) => this.query(text, params),
      transaction: (work) => this.transaction(work),
      exec: (script) => this.exec(script),
      withAsynchronousCommit: () => this.asOwnedView(),
      close: async () => undefined,
    };
  }
}

const clientExecutor = (client: PoolClient): SqlExecutor => ({
  async query<Row extends object>(text: string, params: readonly unknown[] = []): Promise<Row[]> {
    serviceMetrics.sqlStatements.inc();
    const result = await client.query(preparedQuery(text, params));
    return result.rows as Row[];
  },
});

/** An error the server answered with, on a connection that stays usable (not one of a server going away). */
const refusedByServer = (error: unknown): boolean => error instanceof DatabaseError && !isConnectionFailure(error);
