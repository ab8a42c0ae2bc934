import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { locatePostgresBinaries } from '../../src/infrastructure/sql/embedded/postgres-binaries';
import { serverAccount } from '../../src/infrastructure/sql/embedded/server-account';
import { freePort, log, sleep } from './util';

const READY_TIMEOUT_MS = 30_000;

/** What PostgreSQL spent on one normalised statement (pg_stat_statements). */
export interface StatementCost {
  calls: number;
  execMs: number;
  rows: number;
  query: string;
}

/**
 * A scratch PostgreSQL server, made from the embedded release's own binaries, with `pg_stat_statements` loaded:
 * the machine's shared server does not load it, and loading it there needs a restart others would feel. Trust
 * authentication on a free loopback port; its folder is removed when it stops.
 */
export class ProfilingServer {
  private constructor(
    private readonly child: ChildProcess,
    private readonly folder: string,
    readonly adminUrl: string,
  ) {}

  static async start(settings: Record<string, string> = {}): Promise<ProfilingServer> {
    const binaries = locatePostgresBinaries();
    const account = serverAccount((message) => log(message));
    const folder = mkdtempSync(join(tmpdir(), 'pg-profile-'));
    const dataDir = join(folder, 'data');
    chmodSync(folder, 0o700);
    if (account.uid !== null && account.gid !== null) chownSync(folder, account.uid, account.gid);
    const asAccount = { uid: account.uid ?? undefined, gid: account.gid ?? undefined };
    const made = spawnSync(binaries.initdb, ['-D', dataDir, '-U', 'postgres', '--auth=trust', '--no-sync'], {
      ...asAccount,
      encoding: 'utf8',
    });
    if (made.status !== 0) throw new Error(`initdb failed: ${made.stderr}`);
    const port = await freePort();
    const all: Record<string, string> = {
      listen_addresses: '127.0.0.1',
      unix_socket_directories: '',
      port: String(port),
      max_connections: '200',
      shared_preload_libraries: 'pg_stat_statements',
      'pg_stat_statements.track': 'all',
      ...settings,
    };
    const output = openSync(join(folder, 'server.log'), 'a');
    const child = spawn(
      binaries.postgres,
      ['-D', dataDir, ...Object.entries(all).flatMap(([name, value]) => ['-c', `${name}=${value}`])],
      { ...asAccount, stdio: ['ignore', output, output] },
    );
    const server = new ProfilingServer(child, folder, `postgres://postgres@127.0.0.1:${port}/postgres`);
    try {
      await server.waitUntilAnswering();
      await server.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
    } catch (error) {
      await server.stop();
      throw error;
    }
    log(`profiling server (PostgreSQL with pg_stat_statements) at 127.0.0.1:${port}, folder ${folder}`);
    return server;
  }

  /** Forgets what was counted so far: the costs then cover what runs from now on. */
  async resetStatements(): Promise<void> {
    await this.query('SELECT pg_stat_statements_reset()');
  }

  /** Statements by PostgreSQL's execution time, every database of the server. */
  async statementCosts(): Promise<StatementCost[]> {
    const rows = await this.query<{ calls: string; exec_ms: number; rows: string; query: string }>(
      `SELECT calls::text AS calls, total_exec_time AS exec_ms, rows::text AS rows, query
         FROM pg_stat_statements ORDER BY total_exec_time DESC`,
    );
    return rows.map((row) => ({
      calls: Number(row.calls),
      execMs: row.exec_ms,
      rows: Number(row.rows),
      query: row.query,
    }));
  }

  async stop(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) {
      const exited = new Promise((resolve) => this.child.once('exit', resolve));
      // SIGINT: PostgreSQL's fast shutdown.
      this.child.kill('SIGINT');
      await exited;
    }
    rmSync(this.folder, { recursive: true, force: true });
  }

  private async query<Row extends object>(sql: string): Promise<Row[]> {
    const client = new Client({ connectionString: this.adminUrl });
    await client.connect();
    try {
      return (await client.query<Row>(sql)).rows;
    } finally {
      await client.end();
    }
  }

  private async waitUntilAnswering(): Promise<void> {
    const deadline = Date.now() + READY_TIMEOUT_MS;
    for (;;) {
      try {
        await this.query('SELECT 1');
        return;
      } catch (error) {
        if (this.child.exitCode !== null || Date.now() > deadline)
          throw new Error(`the profiling server did not answer: ${(error as Error).message}`, { cause: error });
      }
      await sleep(50);
    }
  }
}

/**
 * The statements that took at least `minShare` of the execution time, per topup: calls, milliseconds per call and
 * per topup, share, and the statement's start.
 */
export function statementTable(costs: readonly StatementCost[], topups: number, minShare = 0.005): string {
  const total = costs.reduce((sum, cost) => sum + cost.execMs, 0);
  const lines = [
    `PostgreSQL's execution time: ${(total / Math.max(topups, 1)).toFixed(3)} ms per topup over ${topups} topups`,
    'calls/topup   ms/call  ms/topup  share  statement',
  ];
  for (const cost of costs) {
    if (total === 0 || cost.execMs / total < minShare) continue;
    const text = cost.query.replace(/\s+/g, ' ').slice(0, 110);
    lines.push(
      `${(cost.calls / topups).toFixed(3).padStart(11)} ${(cost.execMs / cost.calls).toFixed(3).padStart(9)} ` +
        `${(cost.execMs / topups).toFixed(3).padStart(9)} ${((cost.execMs / total) * 100).toFixed(1).padStart(5)} %  ${text}`,
    );
  }
  return lines.join('\n');
}
