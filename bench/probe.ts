/**
 * Where a topup's time goes, by statement: starts the compiled service on a fresh database,
 * places 20 topups one after another, then loads it for a few seconds, and with the tracer
 * preloaded (bench/lib/pg-trace.cjs) writes the statements the service sent during the load.
 *   BENCH_SERVICE_NODE_ARGS="--require ./bench/lib/pg-trace.cjs" PG_TRACE_FILE=/tmp/trace.txt \
 *     npx tsx bench/probe.ts [postgres|embedded] [connections=16] [wallets=10] [seconds=5]
 * (PROBE_OPEN_RATE=400 offers 400 requests a second instead of keeping `connections` busy)
 * (or bench/lib/alloc-sampling.cjs with ALLOC_TRACE_FILE, for where the service allocates;
 *  or bench/lib/request-watch.cjs with REQUEST_WATCH_FILE and OPEN_LOAD_TRACE_FILE, for where a slow answer's time went;
 *  or bench/lib/gc-watch.cjs with GC_WATCH_FILE, for the service's garbage collections by time).
 * (PROBE_WAL=1, postgres only: a checkpoint starts the load, and its WAL is shown by relation with full-page images;
 *  PROBE_FILL_SECONDS=90 first loads it that long at 64 connections, so its tables and indexes have a size)
 * (PROBE_STATEMENTS=1, postgres only: the database is made on a scratch server of the embedded release's binaries
 *  with pg_stat_statements loaded, and PostgreSQL's planning and execution time during the load is shown by statement,
 *  per topup, with its CPU by process)
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from 'pg';
import { admin } from './lib/admin';
import { withCpuShare } from './lib/cpu-usage';
import { nextIdempotencyKey, topupLoad } from './lib/load';
import { openTopupLoad } from './lib/open-load';
import { createDatabase } from './lib/environment';
import { openWalWindow } from './lib/wal-by-relation';
import { ProfilingServer, cpuTable, statementTable } from './lib/profiling-server';
import { ServiceProcess } from './lib/service';
import { sleep } from './lib/util';

/** Orders debited and orders settled so far: how far settlement keeps up with intake. */
async function settledOrders(databaseUrl: string): Promise<string> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ debited: number; settled: number }>(
      `SELECT count(*) FILTER (WHERE event_type = 'WalletDebited')::int AS debited,
              count(*) FILTER (WHERE event_type = 'TransactionSettled')::int AS settled
         FROM es_events`,
    );
    return `${rows[0].settled} of ${rows[0].debited} debited orders`;
  } finally {
    await client.end();
  }
}

/** Rows written per table since the database was created, how many updates were HOT (no index entries), and rows read by whole-table scans. */
async function rowWrites(databaseUrl: string): Promise<string> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{
      relname: string;
      ins: string;
      upd: string;
      hot: string;
      del: string;
      scans: string;
      scanned: string;
      row_bytes: string;
      index_bytes: string;
    }>(
      `SELECT relname, n_tup_ins::text AS ins, n_tup_upd::text AS upd, n_tup_hot_upd::text AS hot, n_tup_del::text AS del,
              seq_scan::text AS scans, seq_tup_read::text AS scanned,
              (pg_table_size(relid) / greatest(n_live_tup, 1))::text AS row_bytes,
              (pg_indexes_size(relid) / greatest(n_live_tup, 1))::text AS index_bytes
         FROM pg_stat_user_tables WHERE n_tup_ins + n_tup_upd + n_tup_del > 0 ORDER BY n_tup_ins + n_tup_upd DESC`,
    );
    return [
      'rows written (inserted, updated of which HOT, deleted), whole-table scans (count, rows read), bytes per live row (table, indexes):',
      ...rows.map(
        (r) =>
          `  ${r.relname.padEnd(24)} ${r.ins.padStart(8)} ${r.upd.padStart(8)} ${r.hot.padStart(8)} ${r.del.padStart(6)} ${r.scans.padStart(6)} ${r.scanned.padStart(10)} ${r.row_bytes.padStart(6)} ${r.index_bytes.padStart(6)}`,
      ),
    ].join('\n');
  } finally {
    await client.end();
  }
}

/** Marks the start and the end of the measured window for the preloaded tracers (pg-trace.cjs, alloc-sampling.cjs). */
async function dumpTrace(): Promise<void> {
  const files = [process.env.PG_TRACE_FILE, process.env.ALLOC_TRACE_FILE].filter(Boolean);
  if (files.length === 0) return;
  for (const file of files) writeFileSync(`${file}.req`, '');
  await sleep(400);
}

async function main(): Promise<void> {
  const mode = (process.argv[2] ?? 'postgres') as 'postgres' | 'embedded';
  const connections = Number(process.argv[3] ?? 16);
  const wallets = Number(process.argv[4] ?? 10);
  const seconds = Number(process.argv[5] ?? 5);
  // PROBE_OPEN_RATE=400: requests sent at that rate whatever the answers' latency (the bench's open model) instead of by connections.
  const openRate = Number(process.env.PROBE_OPEN_RATE ?? 0);
  if (process.env.PROBE_STATEMENTS === '1' && mode !== 'postgres')
    throw new Error('PROBE_STATEMENTS=1 profiles a server of its own: postgres mode only');
  const profiling = process.env.PROBE_STATEMENTS === '1' ? await ProfilingServer.start() : null;
  const scratch =
    mode === 'postgres'
      ? await createDatabase('probe', profiling?.adminUrl).catch(async (error: unknown) => {
          await profiling?.stop();
          throw error;
        })
      : null;
  const databaseUrl = scratch?.url ?? null;
  const dataDir = mkdtempSync(join(tmpdir(), 'probe-'));
  let service: ServiceProcess | null = null;
  try {
    const running = await ServiceProcess.start({ root: resolve(__dirname, '..'), mode, databaseUrl, dataDir }, 180_000);
    service = running;
    const keys = (await admin.partners(running.url, 'probe', wallets)).map((partner) => partner.key);
    const times: number[] = [];
    for (let i = 0; i < 20; i++) {
      const started = performance.now();
      const answer = await admin.topup(running.url, keys[0], nextIdempotencyKey());
      times.push(Math.round((performance.now() - started) * 10) / 10);
      if (answer.status !== 200) console.log(answer.status, answer.text);
    }
    console.log('one at a time, ms:', times.join(' '));
    const fillSeconds = Number(process.env.PROBE_FILL_SECONDS ?? 0);
    if (fillSeconds > 0) {
      const fill = await topupLoad({ url: running.url, connections: 64, durationSeconds: fillSeconds }, keys);
      console.log(`filled with ${fill.ok} topups at 64 connections`);
    }
    await topupLoad({ url: running.url, connections, durationSeconds: 2 }, keys);
    await dumpTrace();
    const wal = databaseUrl && process.env.PROBE_WAL === '1' ? await openWalWindow(databaseUrl) : null;
    await profiling?.resetStatements();
    const cpuBefore = profiling?.cpuByRole() ?? null;
    const { result, cpu } = await withCpuShare(
      running.pid,
      () =>
        openRate > 0
          ? openTopupLoad({ url: running.url, rate: openRate, seconds, keys })
          : topupLoad({ url: running.url, connections, durationSeconds: seconds }, keys),
      (r) => r.ok,
    );
    const walByRelation = wal ? await wal.close(result.ok) : null;
    const statements =
      profiling && cpuBefore
        ? `${statementTable(await profiling.statementCosts(), result.ok)}\n${cpuTable(cpuBefore, profiling.cpuByRole(), result.ok)}`
        : null;
    await dumpTrace();
    const shape = openRate > 0 ? `${openRate} requests/s offered` : `${connections} connections`;
    console.log(
      `${shape} over ${wallets} wallets: ${result.rps} topups/s, p50 ${result.p50_ms} ms, p99 ${result.p99_ms} ms, ${result.ok} answered 200`,
    );
    if (cpu)
      console.log(
        `CPU ms per topup: service ${cpu.service_ms}, PostgreSQL ${cpu.postgres_ms}, load generator ${cpu.client_ms}; machine ${Math.round(cpu.machine_busy * 100)} % busy`,
      );
    if (databaseUrl) console.log(`settled meanwhile: ${await settledOrders(databaseUrl)}`);
    if (databaseUrl) console.log(await rowWrites(databaseUrl));
    if (walByRelation) console.log(walByRelation);
    if (statements) console.log(statements);
  } finally {
    // A service that did not start (a preload that failed, say) still leaves its database to drop.
    await service?.stop();
    rmSync(dataDir, { recursive: true, force: true });
    // PROBE_KEEP_DATABASE=1 leaves the database for a look at its rows (drop it afterwards).
    // (A profiled database goes with its scratch server.)
    if (scratch && (!process.env.PROBE_KEEP_DATABASE || profiling)) await scratch.drop();
    else if (scratch) console.log(`database kept: ${scratch.name}`);
    await profiling?.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
