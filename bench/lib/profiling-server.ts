import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, mkdtempSync, openSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { locatePostgresBinaries } from '../../src/infrastructure/sql/embedded/postgres-binaries';
import { serverAccount } from '../../src/infrastructure/sql/embedded/server-account';
import { TICKS_PER_SECOND, processTicks } from './cpu-usage';
import { freePort, log, sleep } from './util';

const READY_TIMEOUT_MS = 30_000;

/** What PostgreSQL spent on one normalised statement (pg_stat_statements). */
export interface StatementCost {
  calls: number;
  execMs: number;
  planMs: number;
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

  static async start(): Promise<ProfilingServer> {
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
    const settings: Record<string, string> = {
      listen_addresses: '127.0.0.1',
      unix_socket_directories: '',
      port: String(port),
      max_connections: '200',
      shared_preload_libraries: 'pg_stat_statements',
      'pg_stat_statements.track': 'all',
      'pg_stat_statements.track_planning': 'on',
    };
    const output = openSync(join(folder, 'server.log'), 'a');
    const child = spawn(
      binaries.postgres,
      ['-D', dataDir, ...Object.entries(settings).flatMap(([name, value]) => ['-c', `${name}=${value}`])],
      { ...asAccount, stdio: ['ignore', output, output] },
    );
    // A probe that dies before it stops the server does not leave it running.
    process.once('exit', () => child.kill('SIGINT'));
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

  /** Statements by PostgreSQL's execution time (with their planning time), every database of the server. */
  async statementCosts(): Promise<StatementCost[]> {
    const rows = await this.query<{ calls: string; exec_ms: number; plan_ms: number; query: string }>(
      `SELECT calls::text AS calls, total_exec_time AS exec_ms, total_plan_time AS plan_ms, query
         FROM pg_stat_statements ORDER BY total_exec_time DESC`,
    );
    return rows.map((row) => ({
      calls: Number(row.calls),
      execMs: row.exec_ms,
      planMs: row.plan_ms,
      query: row.query,
    }));
  }

  /**
   * CPU ticks so far by the server's processes, by role (Linux): client backends, each background process by its
   * title (each in PostgreSQL's code and in the kernel), and the processes that have exited (the postmaster's reaped
   * children: autovacuum workers, mostly).
   */
  cpuByRole(): Map<string, number> {
    const postmaster = this.child.pid;
    const roles = new Map<string, number>();
    const add = (role: string, ticks: number) => roles.set(role, (roles.get(role) ?? 0) + ticks);
    if (postmaster === undefined) return roles;
    const own = processTicks(postmaster);
    if (own) {
      add('postmaster', own.own);
      add('exited processes', own.children);
    }
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      const ticks = processTicks(Number(entry));
      if (ticks?.parent !== postmaster) continue;
      const role = roleOf(processTitle(Number(entry)));
      add(`${role}, in PostgreSQL`, ticks.own - ticks.system);
      add(`${role}, in the kernel`, ticks.system);
    }
    return roles;
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
 * The statements that took at least `minShare` of the time spent planning and executing, per topup: calls,
 * milliseconds per call and per topup (planning and execution), share, and the statement's start.
 */
export function statementTable(costs: readonly StatementCost[], topups: number, minShare = 0.005): string {
  const per = Math.max(topups, 1);
  const spent = (cost: StatementCost) => cost.execMs + cost.planMs;
  const total = costs.reduce((sum, cost) => sum + spent(cost), 0);
  const planned = costs.reduce((sum, cost) => sum + cost.planMs, 0);
  const lines = [
    `PostgreSQL's time in statements: ${(total / per).toFixed(3)} ms per topup over ${topups} topups ` +
      `(planning ${(planned / per).toFixed(3)})`,
    'calls/topup   ms/call  plan ms/topup  exec ms/topup  share  statement',
  ];
  for (const cost of costs) {
    if (total === 0 || spent(cost) / total < minShare) continue;
    const text = cost.query.replace(/\s+/g, ' ').slice(0, 100);
    lines.push(
      `${(cost.calls / per).toFixed(3).padStart(11)} ${(spent(cost) / cost.calls).toFixed(3).padStart(9)} ` +
        `${(cost.planMs / per).toFixed(3).padStart(14)} ${(cost.execMs / per).toFixed(3).padStart(14)} ` +
        `${((spent(cost) / total) * 100).toFixed(1).padStart(5)} %  ${text}`,
    );
  }
  return lines.join('\n');
}

/** A server process's title, as PostgreSQL sets it (`postgres: walwriter`, `postgres: <user> <database> …`). */
function processTitle(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
  } catch {
    return '';
  }
}

const BACKGROUND_ROLES = [
  'autovacuum launcher',
  'autovacuum worker',
  'checkpointer',
  'background writer',
  'walwriter',
  'logical replication launcher',
];

function roleOf(title: string): string {
  return BACKGROUND_ROLES.find((role) => title.includes(role)) ?? 'client backends';
}

/** CPU milliseconds per topup by role between two `cpuByRole` readings. */
export function cpuTable(before: Map<string, number>, after: Map<string, number>, topups: number): string {
  const lines = ["PostgreSQL's CPU by process, ms per topup:"];
  for (const [role, ticks] of [...after].sort(([, a], [, b]) => b - a)) {
    const spent = ticks - (before.get(role) ?? 0);
    if (spent <= 0) continue;
    lines.push(`${((spent * 1000) / TICKS_PER_SECOND / Math.max(topups, 1)).toFixed(3).padStart(9)}  ${role}`);
  }
  return lines.join('\n');
}
