import { cpus, hostname, loadavg, release, totalmem } from 'node:os';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { Client } from 'pg';
import { pgbenchPath } from './pgbench';
import { log, round, sleep } from './util';

/** The checkout the bench runs in (bench/lib is two levels down). */
export const ROOT = resolve(__dirname, '..', '..');

/** The service runs from dist/ (decorator metadata needs tsc): build it when src/ is newer. */
export function ensureBuilt(): void {
  const newest = (dir: string): number =>
    readdirSync(dir, { withFileTypes: true }).reduce((latest, entry) => {
      const path = join(dir, entry.name);
      return Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
    }, 0);
  const entry = join(ROOT, 'dist', 'main.js');
  const built = existsSync(entry) ? statSync(entry).mtimeMs : 0;
  // BENCH_BUILD=1 always builds, BENCH_BUILD=0 never does (runs whatever dist/ holds).
  if (process.env.BENCH_BUILD === '0' || (built >= newest(join(ROOT, 'src')) && process.env.BENCH_BUILD !== '1'))
    return;
  log("building the service (npm run build: tsc, and the portal's static files)");
  const started = Date.now();
  execFileSync('npm', ['run', '--silent', 'build'], { cwd: ROOT, stdio: 'inherit' });
  log(`built in ${Date.now() - started} ms`);
}

/**
 * Catch-up readers only read events older than every open transaction of the whole server
 * (see docs/architecture.md, "Global order"): a transaction left open in any database of it
 * stalls read-your-writes for every request. Say so before measuring, and wait a little.
 */
export async function reportBlockingTransactions(): Promise<void> {
  const adminUrl =
    process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const client = new Client({ connectionString: adminUrl });
  await client.connect();
  try {
    for (let waited = 0; ; waited += 5) {
      const rows = await client.query<{ pid: number; datname: string; state: string; age: number }>(
        `SELECT pid, datname, state, extract(epoch FROM now() - xact_start)::float AS age FROM pg_stat_activity
          WHERE backend_xid IS NOT NULL AND pid <> pg_backend_pid() AND now() - xact_start > interval '5 seconds'`,
      );
      if (rows.rows.length === 0) return;
      const list = rows.rows
        .map((row) => `pid ${row.pid} (${row.datname}, ${row.state}, ${Math.round(row.age)} s)`)
        .join(', ');
      if (waited >= 60) {
        log(
          `WARNING: transactions still open on the server hold back every projection: ${list}; the figures will show it`,
        );
        return;
      }
      if (waited === 0)
        log(`waiting for long transactions elsewhere on the server to end (they stall projections): ${list}`);
      await sleep(5000);
    }
  } finally {
    await client.end();
  }
}

/** The server the bench and its probes make their databases on (the bench's own, or the tests'). */
const ADMIN_URL =
  process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

async function asAdmin(sql: string, adminUrl = ADMIN_URL): Promise<void> {
  const client = new Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * A new empty database on the bench's server (`<prefix>_<random>`), or on the server `adminUrl` names, its address,
 * and how to drop it.
 */
export async function createDatabase(
  prefix = 'bench',
  adminUrl = ADMIN_URL,
): Promise<{ name: string; url: string; drop(): Promise<void> }> {
  const name = `${prefix}_${randomBytes(5).toString('hex')}`;
  await asAdmin(`CREATE DATABASE "${name}" TEMPLATE template0`, adminUrl);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  log(`fresh database ${name}`);
  return {
    name,
    url: url.toString(),
    drop: () => asAdmin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`, adminUrl),
  };
}

export async function describeMachine(): Promise<Record<string, string | number>> {
  const client = new Client({ connectionString: ADMIN_URL });
  await client.connect();
  const setting = async (name: string) =>
    (await client.query<{ v: string }>(`SELECT current_setting($1) AS v`, [name])).rows[0].v;
  try {
    let pgbench = '';
    try {
      pgbench = execFileSync(pgbenchPath() ?? 'pgbench', ['--version'])
        .toString()
        .trim();
    } catch {
      pgbench = 'unknown';
    }
    return {
      host: hostname(),
      cpus: cpus().length,
      cpu_model: cpus()[0]?.model.trim() ?? 'unknown',
      memory_gb: round(totalmem() / 2 ** 30, 1),
      kernel: release(),
      node: process.version,
      postgres: await setting('server_version'),
      pgbench,
      shared_buffers: await setting('shared_buffers'),
      synchronous_commit: await setting('synchronous_commit'),
      fsync: await setting('fsync'),
      max_connections: await setting('max_connections'),
      load_average_start: round(loadavg()[0], 2),
    };
  } finally {
    await client.end();
  }
}

export function sumMb(...parts: (number | null)[]): number | null {
  return parts.some((part) => part === null)
    ? null
    : round(
        parts.reduce<number>((sum, part) => sum + (part ?? 0), 0),
        1,
      );
}
