/**
 * The service benchmark: `npm run bench` (`-- --quick` for about two minutes, `-- --json`
 * to print the results as one JSON object on the last line of stdout).
 *
 * Starts the compiled service (dist/main.js) as a second process on a fresh PostgreSQL
 * database and loads it over loopback HTTP with autocannon, in one run:
 *   - LIMIT: pgbench -M prepared, one event INSERT + one conditional balance UPDATE per transaction;
 *   - topups spread over many wallets, on one hot wallet, and on a wallet holding a long history;
 *   - GET /balance, and the same authenticated read on a bare Fastify server (the framework baseline);
 *   - a concurrency sweep (throughput and p99 against connections) for the chart;
 *   - `verify` (the six money invariants) and a count of debits against accepted topups;
 * then the same scenarios in embedded mode (the service's own PostgreSQL server) beside them.
 * Writes bench/results/latest.json, latest.md and concurrency.svg (or --out DIR).
 */
import { cpus, hostname, loadavg, release, tmpdir, totalmem } from 'node:os';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { Client } from 'pg';
import { embeddedSocketConnectionString } from '../src/infrastructure/sql/embedded/server-endpoint';
import { PostgresDatabase } from '../src/infrastructure/sql/postgres-database';
import { SqlDatabase } from '../src/infrastructure/sql/sql-database';
import { admin, BenchPartner } from './lib/admin';
import { BareServer } from './lib/bare';
import { waitForProcessIdle, withCpuShare } from './lib/cpu-usage';
import { renderChart, ChartSeries } from './lib/chart';
import { getLoad, LoadResult, nextIdempotencyKey, topupLoad } from './lib/load';
import { pgbenchPath, prepareLimit, runLimit } from './lib/pgbench';
import { Plan, PlanName, planFor } from './lib/plan';
import { longRun as runLongRun } from './lib/long-run';
import { seedWalletHistory } from './lib/seed-history';
import { ServiceProcess } from './lib/service';
import { embeddedServerRssMb, log, round, sleep } from './lib/util';
import { markdownReport } from './lib/report';
import { BenchResults, ModeResults, Scenario, Target } from './lib/types';

const ROOT = resolve(__dirname, '..');

interface Args {
  plan: PlanName;
  json: boolean;
  outDir: string | null;
  keepDb: boolean;
  embedded: boolean | null;
  updateDocs: boolean;
  rssOrders: number | null;
  embeddedRssOrders: number | null;
  rssMinutes: number | null;
  /** Re-render latest.md and concurrency.svg from a results file instead of running. */
  render: string | null;
}

function parseArgs(argv: string[]): Args {
  const args: Args = { plan: 'full', json: false, outDir: null, keepDb: false, embedded: null, updateDocs: false, rssOrders: null, embeddedRssOrders: null, rssMinutes: null, render: null };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--quick') args.plan = args.plan === 'tiny' ? 'tiny' : 'quick';
    else if (arg === '--tiny') args.plan = 'tiny';
    else if (arg === '--json') args.json = true;
    else if (arg === '--out') args.outDir = resolve(argv[++i] ?? '');
    else if (arg === '--keep-db') args.keepDb = true;
    else if (arg === '--no-embedded') args.embedded = false;
    else if (arg === '--embedded') args.embedded = true;
    else if (arg === '--update-docs') args.updateDocs = true;
    else if (arg === '--rss-orders') args.rssOrders = Number(argv[++i]);
    else if (arg === '--embedded-rss-orders') args.embeddedRssOrders = Number(argv[++i]);
    else if (arg === '--rss-minutes') args.rssMinutes = Number(argv[++i]);
    else if (arg === '--render') args.render = resolve(argv[++i] ?? '');
    else if (arg === '--help' || arg === '-h') {
      process.stdout.write(
        'npm run bench -- [--quick | --tiny] [--json] [--out DIR] [--no-embedded] [--rss-orders N] [--embedded-rss-orders N] [--rss-minutes M] [--keep-db] [--update-docs] [--render RESULTS.json]\n',
      );
      process.exit(0);
    } else throw new Error(`unknown argument ${arg}`);
  }
  if (process.env.BENCH_TINY === '1') args.plan = 'tiny';
  return args;
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  if (args.render) {
    const results = JSON.parse(readFileSync(args.render, 'utf8')) as BenchResults;
    const outDir = args.outDir ?? dirname(args.render);
    writeFileSync(join(outDir, 'concurrency.svg'), chartOf(results));
    const report = markdownReport(results);
    writeFileSync(join(outDir, 'latest.md'), report);
    if (args.updateDocs) updateDocs(report);
    log(`re-rendered ${outDir}/latest.md and concurrency.svg`);
    return;
  }
  const plan = planFor(args.plan);
  if (args.rssOrders !== null) plan.rssOrders = args.rssOrders;
  if (args.embeddedRssOrders !== null) plan.embeddedRssOrders = args.embeddedRssOrders;
  if (args.rssMinutes !== null) plan.rssMinutes = args.rssMinutes;
  if (args.embedded !== null) plan.embedded = args.embedded;
  const started = new Date();
  log(`plan ${plan.name}: ${plan.connections} connections, ${plan.durationSeconds}s per scenario, ${plan.wallets} wallets, ${plan.historyEvents} history events`);
  if (!pgbenchPath()) throw new Error('pgbench is required for the LIMIT baseline (set PGBENCH to its path)');

  ensureBuilt();
  await reportBlockingTransactions();
  const machine = await describeMachine();
  const postgres = await runPostgres(plan, args);
  const embedded = plan.embedded ? await runEmbedded(plan) : null;
  const finished = new Date();
  // Other work on the machine skews every figure: the 1-minute load average says how much there was.
  machine.load_average_end = round(loadavg()[0], 2);
  const results: BenchResults = {
    schema: 'partner-service-bench/1',
    plan,
    started_at: started.toISOString(),
    finished_at: finished.toISOString(),
    duration_s: round((finished.getTime() - started.getTime()) / 1000, 1),
    machine,
    postgres,
    embedded,
    targets: [...targetsOf(plan, postgres), ...(embedded ? embeddedTargetsOf(plan, postgres, embedded) : [])],
  };

  const outDir = args.outDir ?? (plan.name === 'tiny' ? mkdtempSync(join(tmpdir(), 'bench-results-')) : join(ROOT, 'bench', 'results'));
  mkdirSync(outDir, { recursive: true });
  writeFileSync(join(outDir, 'latest.json'), `${JSON.stringify(results, null, 2)}\n`);
  writeFileSync(join(outDir, 'concurrency.svg'), chartOf(results));
  const report = markdownReport(results);
  writeFileSync(join(outDir, 'latest.md'), report);
  if (args.updateDocs) updateDocs(report);
  log(`results written to ${outDir}`);
  process.stderr.write(`\n${report}\n`);
  if (args.json) process.stdout.write(`${JSON.stringify(results)}\n`);
}

// ---------------------------------------------------------------- postgres

async function runPostgres(plan: Plan, args: Args): Promise<ModeResults> {
  const database = await createDatabase();
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-pg-'));
  let service: ServiceProcess | null = null;
  try {
    const setupStarted = Date.now();
    service = await ServiceProcess.start({ root: ROOT, mode: 'postgres', databaseUrl: database.url, dataDir });
    const { spread, hot, historic } = await setupPartners(service.url, plan.wallets);
    const db = new PostgresDatabase({ connectionString: database.url, maxConnections: 2, applicationName: 'bench-seed' });
    let seed;
    try {
      seed = await seedWalletHistory(db, historic.partnerId, plan.historyEvents);
    } finally {
      await db.close();
    }
    log(`seeded ${seed.events} events into the history wallet in ${seed.ms} ms`);
    const catchUp = await waitForBalance(service.url, historic.key, seed.balanceAfter, 600_000);
    log(`projections caught up with the history in ${catchUp} ms`);
    await prepareLimit(database.url);
    const setupMs = Date.now() - setupStarted;
    const backlogDb = new PostgresDatabase({ connectionString: database.url, maxConnections: 1, applicationName: 'bench-backlog' });
    pendingJobs = async () =>
      Number((await backlogDb.query<{ n: string }>(`SELECT count(*)::text AS n FROM jobs WHERE done_at IS NULL AND due_at <= now()`))[0].n);
    checkpoint = () => backlogDb.exec('CHECKPOINT').catch((error: unknown) => log(`CHECKPOINT refused (${String(error)}); scenarios may pay for earlier writes`));

    const c = plan.connections;
    const counter = { accepted: 0, sent: 0 };
    const count = async (pending: Promise<LoadResult>): Promise<LoadResult> => {
      const result = await pending;
      counter.accepted += result.ok;
      counter.sent += result.sent;
      return result;
    };
    const withRss = (result: LoadResult): Scenario => ({ ...result, rss_mb: service?.rssMb() ?? null });

    await drainBacklog();
    log(`LIMIT baseline: pgbench ${c} clients`);
    const limit = await measuredLimit('limit', database.url, c, plan.durationSeconds, service.pid);

    const topupSpread = await measured('topup_spread', plan, (seconds) => count(topupLoad({ url: service!.url, connections: c, durationSeconds: seconds }, spread.map((p) => p.key))), service.pid);
    // LIMIT again, right after the topups it is compared with: the ratio uses the mean of the two runs.
    await drainBacklog();
    const limitAgain = await measuredLimit('limit again', database.url, c, plan.durationSeconds, service.pid);
    const topupHot = await measured('topup_hot', plan, (seconds) => count(topupLoad({ url: service!.url, connections: c, durationSeconds: seconds }, [hot.key])), service.pid);
    const cold = await coldStart(service.url, historic.key);
    counter.accepted += 1;
    counter.sent += 1;
    log(`history wallet: first topup (cold lane, reads ${seed.toRevision + 1} events) took ${cold} ms`);
    const topupHistory = await measured('topup_history', plan, (seconds) =>
      count(topupLoad({ url: service!.url, connections: c, durationSeconds: seconds }, [historic.key])), service.pid);
    const balance = await measured('balance', plan, (seconds) => getLoad({ url: service!.url, connections: c, durationSeconds: seconds }, '/v1/partner/balance', spread.map((p) => p.key)), service.pid);
    const bare = await BareServer.start(ROOT, { databaseUrl: database.url });
    let balanceBare: LoadResult;
    try {
      balanceBare = await measured('balance_bare', plan, (seconds) => getLoad({ url: bare.url, connections: c, durationSeconds: seconds }, '/v1/partner/balance', spread.map((p) => p.key)), bare.pid);
    } finally {
      await bare.stop();
    }

    const sweepTopup: Scenario[] = [];
    const sweepLimit: Scenario[] = [];
    for (const level of plan.sweep) {
      if (level === c) {
        sweepTopup.push(topupSpread);
        sweepLimit.push(limit);
        continue;
      }
      await drainBacklog();
      const l = await measuredLimit(`limit @${level}`, database.url, level, plan.sweepSeconds, service.pid);
      sweepLimit.push(l);
      const t = await measured(`topup_spread @${level}`, { ...plan, durationSeconds: plan.sweepSeconds, warmupSeconds: Math.min(1, plan.warmupSeconds) }, (seconds) =>
        count(topupLoad({ url: service!.url, connections: level, durationSeconds: seconds }, spread.map((p) => p.key))), service.pid);
      sweepTopup.push(t);
    }

    let longRun: ModeResults['memory']['long_run'] = null;
    if (plan.rssOrders > 0) {
      const running = service;
      longRun = await runLongRun({
        url: running.url, keys: spread.map((p) => p.key), connections: c, targetOrders: plan.rssOrders, minutes: plan.rssMinutes,
        counter, count, memoryMb: () => running.rssMb(), label: 'long run (service RSS)',
      });
    }
    const memory = { orders: counter.accepted, rss_mb: service.rssMb(), peak_rss_mb: service.peakRssMb(), long_run: longRun };
    log(`service RSS after ${counter.accepted} orders: ${memory.rss_mb} MB (peak ${memory.peak_rss_mb} MB)`);

    pendingJobs = null;
    checkpoint = null;
    await backlogDb.close();
    const verify = await runVerify(service.url, plan);
    const countDb = new PostgresDatabase({ connectionString: database.url, maxConnections: 1, applicationName: 'bench-count' });
    const money = await moneyCheck(countDb, counter).finally(() => countDb.close());
    const result: ModeResults = {
      mode: 'postgres',
      scenarios: {
        limit,
        limit_again: limitAgain,
        topup_spread: withRss(topupSpread),
        topup_hot: withRss(topupHot),
        topup_history: { ...withRss(topupHistory), cold_start_ms: cold },
        balance: withRss(balance),
        balance_bare: balanceBare,
      },
      ratios: {
        topup_vs_limit: ratio(topupSpread.rps, (limit.rps + limitAgain.rps) / 2),
        hot_vs_spread: ratio(topupHot.rps, topupSpread.rps),
        history_vs_fresh: ratio(topupHistory.rps, topupHot.rps),
        balance_vs_bare: ratio(balance.rps, balanceBare.rps),
      },
      sweep: { topup: sweepTopup, limit: sweepLimit },
      history: { events: seed.events, seed_ms: seed.ms, projection_catch_up_ms: catchUp, wallet_events: seed.toRevision + 1 },
      memory,
      verify,
      money,
      setup_ms: setupMs,
    };
    return result;
  } finally {
    await service?.stop();
    rmSync(dataDir, { recursive: true, force: true });
    if (!args.keepDb) await database.drop();
    else log(`kept database ${database.url}`);
  }
}

// ---------------------------------------------------------------- embedded

async function runEmbedded(plan: Plan): Promise<ModeResults> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-embedded-'));
  // As root the server runs as the postgres account, which must be able to enter the folder.
  chmodSync(dataDir, 0o711);
  const databaseUrl = embeddedSocketConnectionString(dataDir);
  if (!databaseUrl) throw new Error(`the bench needs the embedded server on a Unix socket; ${dataDir} is too long a path`);
  const options = { root: ROOT, mode: 'embedded' as const, databaseUrl: null, dataDir };
  const seconds = plan.embeddedSeconds;
  const eplan: Plan = { ...plan, durationSeconds: seconds, warmupSeconds: Math.min(plan.warmupSeconds, 2) };
  let service: ServiceProcess | null = null;
  const db = new PostgresDatabase({ connectionString: databaseUrl, maxConnections: 4, applicationName: 'bench' });
  try {
    const setupStarted = Date.now();
    service = await ServiceProcess.start(options, 180_000);
    const firstStartMs = Date.now() - setupStarted;
    await service.stop();
    const restartStarted = Date.now();
    service = await ServiceProcess.start(options, 180_000);
    const restartMs = Date.now() - restartStarted;
    log(`embedded: first start on a fresh folder ${firstStartMs} ms, restart ${restartMs} ms (process start to /health)`);
    const { spread, hot, historic } = await setupPartners(service.url, plan.wallets);
    await waitForBackgroundIdle(service.url, historic.key);
    const seed = await seedWalletHistory(db, historic.partnerId, plan.embeddedHistoryEvents);
    log(`embedded: seeded ${seed.events} events in ${seed.ms} ms`);
    const catchUp = await waitForBalance(service.url, historic.key, seed.balanceAfter, 900_000);
    log(`embedded: projections caught up with the history in ${catchUp} ms`);
    const setupMs = Date.now() - setupStarted;

    const c = plan.connections;
    const counter = { accepted: 0, sent: 0 };
    const count = async (pending: Promise<LoadResult>): Promise<LoadResult> => {
      const result = await pending;
      counter.accepted += result.ok;
      counter.sent += result.sent;
      return result;
    };
    const url = service.url;
    const withRss = (result: LoadResult): Scenario => ({ ...result, rss_mb: service?.rssMb() ?? null });
    const topupSpread = await measured('embedded topup_spread', eplan, (s) => count(topupLoad({ url, connections: c, durationSeconds: s }, spread.map((p) => p.key))), service.pid);
    const topupHot = await measured('embedded topup_hot', eplan, (s) => count(topupLoad({ url, connections: c, durationSeconds: s }, [hot.key])), service.pid);
    const cold = await coldStart(url, historic.key);
    counter.accepted += 1;
    counter.sent += 1;
    log(`embedded history wallet: first topup (cold lane) took ${cold} ms`);
    const topupHistory = await measured('embedded topup_history', eplan, (s) => count(topupLoad({ url, connections: c, durationSeconds: s }, [historic.key])), service.pid);
    const balance = await measured('embedded balance', eplan, (s) => getLoad({ url, connections: c, durationSeconds: s }, '/v1/partner/balance', spread.map((p) => p.key)), service.pid);
    const sweepTopup: Scenario[] = [];
    for (const level of plan.embeddedSweep ? plan.sweep : [c]) {
      if (level === c) {
        sweepTopup.push(topupSpread);
        continue;
      }
      sweepTopup.push(
        await measured(`embedded topup_spread @${level}`, { ...eplan, durationSeconds: plan.sweepSeconds, warmupSeconds: Math.min(1, eplan.warmupSeconds) }, (s) =>
          count(topupLoad({ url, connections: level, durationSeconds: s }, spread.map((p) => p.key))), service.pid),
      );
    }
    let embeddedLongRun: ModeResults['memory']['long_run'] = null;
    if (plan.embeddedRssOrders > 0) {
      const running = service;
      // The embedded mode's footprint is the service and its own database server together.
      embeddedLongRun = await runLongRun({
        url, keys: spread.map((p) => p.key), connections: c, targetOrders: plan.embeddedRssOrders, minutes: plan.rssMinutes,
        counter, count, memoryMb: () => sumMb(running.rssMb(), embeddedServerRssMb(dataDir)), label: 'embedded long run (service RSS + server PSS)',
      });
    }
    const memory = {
      orders: counter.accepted,
      rss_mb: service.rssMb(),
      peak_rss_mb: service.peakRssMb(),
      server_rss_mb: embeddedServerRssMb(dataDir),
      first_start_ms: firstStartMs,
      restart_ms: restartMs,
      long_run: embeddedLongRun,
    };
    const verify = await runVerify(url, plan);
    const money = await moneyCheck(db, counter);

    const bare = await BareServer.start(ROOT, { databaseUrl });
    let balanceBare: LoadResult;
    try {
      balanceBare = await measured('embedded balance_bare', eplan, (s) => getLoad({ url: bare.url, connections: c, durationSeconds: s }, '/v1/partner/balance', spread.map((p) => p.key)), bare.pid);
    } finally {
      await bare.stop();
    }
    return {
      mode: 'embedded',
      scenarios: {
        limit: null,
        limit_again: null,
        topup_spread: withRss(topupSpread),
        topup_hot: withRss(topupHot),
        topup_history: { ...withRss(topupHistory), cold_start_ms: cold },
        balance: withRss(balance),
        balance_bare: balanceBare,
      },
      ratios: {
        topup_vs_limit: null,
        hot_vs_spread: ratio(topupHot.rps, topupSpread.rps),
        history_vs_fresh: ratio(topupHistory.rps, topupHot.rps),
        balance_vs_bare: ratio(balance.rps, balanceBare.rps),
      },
      sweep: { topup: sweepTopup, limit: [] },
      history: { events: seed.events, seed_ms: seed.ms, projection_catch_up_ms: catchUp, wallet_events: seed.toRevision + 1 },
      memory,
      verify,
      money,
      setup_ms: setupMs,
    };
  } finally {
    await db.close();
    await service?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------- steps

async function setupPartners(url: string, wallets: number): Promise<{ spread: BenchPartner[]; hot: BenchPartner; historic: BenchPartner }> {
  const started = Date.now();
  const spread = await admin.partners(url, 'Bench spread', wallets);
  const hot = await admin.partner(url, 'Bench hot');
  const historic = await admin.partner(url, 'Bench history');
  log(`${wallets + 2} partners onboarded and funded in ${Date.now() - started} ms`);
  return { spread, hot, historic };
}

/** Settlement jobs due and not done: the background work a scenario starts with (PostgreSQL mode). */
let pendingJobs: (() => Promise<number>) | null = null;

/**
 * Waits until the settlement of earlier scenarios' orders is done, so each scenario starts from
 * the same state and competes only with the settlement of its own orders (PostgreSQL mode).
 */
async function drainBacklog(): Promise<void> {
  if (!pendingJobs) return;
  const started = Date.now();
  const first = await pendingJobs();
  if (first > 0) {
    for (let pending = first; pending > 0 && Date.now() - started < 15 * 60_000; pending = await pendingJobs()) await sleep(500);
    const seconds = (Date.now() - started) / 1000;
    log(`settlement backlog of ${first} jobs done in ${round(seconds, 1)} s (${round(first / seconds, 0)} jobs/s, no load)`);
  }
  // The previous scenario's dirty pages are written now, not during the next one.
  await checkpoint?.();
}

/** CHECKPOINT on the bench database's server (PostgreSQL mode; needs a superuser or pg_checkpoint). */
let checkpoint: (() => Promise<void>) | null = null;

/** Settlement of earlier orders done, then a warm-up (not counted in the figures), then the measured run. */
async function measured(name: string, plan: Plan, load: (seconds: number) => Promise<LoadResult>, serverPid: number | null): Promise<Scenario> {
  await drainBacklog();
  if (plan.warmupSeconds > 0) await load(plan.warmupSeconds);
  const backlog = pendingJobs ? await pendingJobs().catch(() => null) : null;
  const { result: run, cpu } = await withCpuShare(serverPid, () => load(plan.durationSeconds), (r) => r.ok);
  const result: Scenario = { ...run, cpu, ...(backlog === null ? {} : { jobs_pending_at_start: backlog }) };
  logScenario(name, result);
  return result;
}

/** The LIMIT baseline with its CPU share (the service idles meanwhile; its share shows what background work it still did). */
async function measuredLimit(name: string, databaseUrl: string, connections: number, seconds: number, servicePid: number): Promise<Scenario> {
  const waited = await waitForProcessIdle(servicePid);
  if (waited > 1000) log(`waited ${waited} ms for the service to finish background work before LIMIT`);
  const { result, cpu } = await withCpuShare(servicePid, () => runLimit(databaseUrl, connections, seconds), (r) => r.ok);
  const scenario: Scenario = { ...result, cpu };
  logScenario(name, scenario);
  return scenario;
}

function logScenario(name: string, result: Scenario): void {
  const problems = result.non_2xx || result.errors ? ` non-2xx ${result.non_2xx} errors ${result.errors} ${JSON.stringify(result.statuses)}` : '';
  const backlog = 'jobs_pending_at_start' in result ? `, ${String(result.jobs_pending_at_start)} jobs pending` : '';
  const cpu = result.cpu
    ? `; CPU ms per request: server ${result.cpu.service_ms ?? '–'}, PostgreSQL ${result.cpu.postgres_ms}, client ${result.cpu.client_ms}; machine ${Math.round(result.cpu.machine_busy * 100)} % busy`
    : '';
  log(`${name.padEnd(24)} ${String(result.rps).padStart(9)} req/s  p50 ${result.p50_ms} ms  p99 ${result.p99_ms} ms  (${result.ok} ok, c=${result.connections}${backlog})${problems}${cpu}`);
}

/** The first topup on a wallet whose lane is cold reads the whole stream once. */
async function coldStart(url: string, key: string): Promise<number> {
  const started = process.hrtime.bigint();
  const answer = await admin.topup(url, key, nextIdempotencyKey());
  if (answer.status !== 200) throw new Error(`cold-start topup failed: ${answer.status} ${answer.text}`);
  return round(Number(process.hrtime.bigint() - started) / 1e6, 1);
}

async function waitForBalance(url: string, key: string, expected: string, timeoutMs: number): Promise<number> {
  const started = Date.now();
  for (;;) {
    const available = await admin.balance(url, key);
    if (Number(available) >= Number(expected)) return Date.now() - started;
    if (Date.now() - started > timeoutMs) throw new Error(`balance stayed at ${available}, expected ${expected}`);
    await sleep(100);
  }
}

/** Lets the onboarding jobs (sandbox grants) finish before the service is stopped for seeding. */
async function waitForBackgroundIdle(url: string, key: string): Promise<void> {
  let last = '';
  for (let stable = 0; stable < 5; ) {
    const now = await admin.balance(url, key);
    stable = now === last ? stable + 1 : 0;
    last = now;
    await sleep(200);
  }
}

async function runVerify(url: string, plan: Plan): Promise<ModeResults['verify']> {
  const started = Date.now();
  log('verify: checking the money invariants over the whole log');
  const answer = await admin.verify(url, plan.name === 'full' ? 3_600_000 : 600_000);
  const checked = (answer.body.checked ?? {}) as { events?: number; wallets?: number; orders?: number };
  const breaches = Array.isArray(answer.body.breaches) ? answer.body.breaches.length : 0;
  const result = {
    ok: answer.status === 200 && answer.body.ok === true,
    status: answer.status,
    ms: Date.now() - started,
    events: checked.events ?? null,
    wallets: checked.wallets ?? null,
    orders: checked.orders ?? null,
    breaches,
  };
  log(`verify: ${result.ok ? 'ok' : 'FAILED'} (${result.events} events, ${result.orders} orders, ${breaches} breaches) in ${result.ms} ms`);
  if (!result.ok) log(JSON.stringify(answer.body).slice(0, 2000));
  return result;
}

/**
 * No money lost or moved twice: every topup answered 200 has its debit in the log
 * (debits >= accepted), and no debit exists beyond the requests sent (debits <= sent; a
 * request still in flight when a timed run stops is debited but never answered). verify
 * checks, besides, that no key moved money twice and every debit's request was answered 200.
 */
async function moneyCheck(db: SqlDatabase, counter: { accepted: number; sent: number }): Promise<ModeResults['money']> {
  const rows = await db.query<{ debits: string; keys: string }>(
    `SELECT count(*)::text AS debits, count(DISTINCT data->>'idempotencyKey')::text AS keys FROM es_events WHERE event_type = 'WalletDebited'`,
  );
  const debits = Number(rows[0].debits);
  const keys = Number(rows[0].keys);
  const consistent = debits >= counter.accepted && debits <= counter.sent && keys === debits;
  const money = {
    accepted_topups: counter.accepted,
    sent_topups: counter.sent,
    debits_in_log: debits,
    distinct_keys_debited: keys,
    consistent,
  };
  log(`money: ${counter.accepted} topups answered 200, ${debits} debits in the log for ${keys} keys, at most ${counter.sent} sent: ${consistent ? 'consistent' : 'INCONSISTENT'}`);
  return money;
}

const ratio = (a: number, b: number): number => (b > 0 ? round(a / b, 3) : 0);

function targetsOf(plan: Plan, pg: ModeResults): Target[] {
  const t = (name: string, target: string, value: number | null, ok: (v: number) => boolean, note?: string): Target => ({
    name,
    target,
    value,
    met: value === null ? null : ok(value),
    ...(note ? { note } : {}),
  });
  const millionReached = pg.memory.orders >= 1_000_000;
  const rssNote = millionReached ? undefined : `measured after ${pg.memory.orders} orders, not one million`;
  return [
    t('topup_vs_limit', '>= 1.0', pg.ratios.topup_vs_limit, (v) => v >= 1.0),
    t('hot_vs_spread', '>= 0.8', pg.ratios.hot_vs_spread, (v) => v >= 0.8),
    t('history_vs_fresh', '>= 0.9', pg.ratios.history_vs_fresh, (v) => v >= 0.9),
    t('balance_vs_bare', '>= 0.6', pg.ratios.balance_vs_bare, (v) => v >= 0.6),
    t(`topup_p99_ms at ${plan.connections} connections`, '<= 25', pg.scenarios.topup_spread.p99_ms, (v) => v <= 25),
    {
      ...t('rss_mb after one million orders', '< 400', pg.memory.rss_mb, (v) => v < 400, rssNote),
      ...(millionReached ? {} : { met: null }),
    },
    t('verify ok (postgres)', 'true', pg.verify.ok ? 1 : 0, (v) => v === 1),
    t('accepted <= debits <= sent, one debit per key (postgres)', 'true', pg.money.consistent ? 1 : 0, (v) => v === 1),
  ];
}

/** The embedded mode's own targets: throughput beside PostgreSQL mode in the same run, start times, footprint. */
function embeddedTargetsOf(plan: Plan, pg: ModeResults, embedded: ModeResults): Target[] {
  const t = (name: string, target: string, value: number | null, ok: (v: number) => boolean, note?: string): Target => ({
    name, target, value, met: value === null ? null : ok(value), ...(note ? { note } : {}),
  });
  const long = embedded.memory.long_run;
  const lastSample = long?.samples[long.samples.length - 1] ?? null;
  const reached = long !== null && long.orders_reached >= 100_000;
  return [
    t(`embedded topups vs postgres mode at ${plan.connections} connections`, '>= 0.8', ratio(embedded.scenarios.topup_spread.rps, pg.scenarios.topup_spread.rps), (v) => v >= 0.8),
    t('embedded first start on a fresh folder, ms', '<= 5000', embedded.memory.first_start_ms ?? null, (v) => v <= 5000, 'process start to first answered /health, from the sources'),
    t('embedded restart, ms', '<= 3000', embedded.memory.restart_ms ?? null, (v) => v <= 3000, 'process start to first answered /health, from the sources'),
    {
      ...t('embedded service RSS + server PSS after 100,000 orders, MB', '<= 400', lastSample?.rss_mb ?? null, (v) => v <= 400, reached ? undefined : 'no embedded long run in this plan'),
      ...(reached ? {} : { met: null }),
    },
    t('verify ok (embedded)', 'true', embedded.verify.ok ? 1 : 0, (v) => v === 1),
    t('accepted <= debits <= sent, one debit per key (embedded)', 'true', embedded.money.consistent ? 1 : 0, (v) => v === 1),
  ];
}

function chartOf(results: BenchResults): string {
  const series: ChartSeries[] = [
    { name: 'topup, postgres (service)', color: '#1f77b4', points: results.postgres.sweep.topup },
    { name: 'LIMIT (pgbench insert + update)', color: '#d62728', dashed: true, points: results.postgres.sweep.limit },
  ];
  if (results.embedded) series.push({ name: 'topup, embedded (own PostgreSQL server)', color: '#2ca02c', points: results.embedded.sweep.topup });
  const m = results.machine;
  return renderChart(
    'Topup throughput and p99 against concurrency',
    `${m.cpus} × ${m.cpu_model}, PostgreSQL ${m.postgres}, ${results.plan.name} run of ${results.finished_at.slice(0, 10)}, ${results.plan.sweepSeconds}s per point (${results.plan.durationSeconds}s at ${results.plan.connections})`,
    series,
  );
}

function updateDocs(report: string): void {
  const file = join(ROOT, 'docs', 'performance.md');
  const text = readFileSync(file, 'utf8');
  const begin = '<!-- bench:results:begin -->';
  const end = '<!-- bench:results:end -->';
  const from = text.indexOf(begin);
  const to = text.indexOf(end);
  if (from < 0 || to < from) throw new Error(`docs/performance.md has no ${begin} … ${end} block`);
  writeFileSync(file, `${text.slice(0, from + begin.length)}\n${report}\n${text.slice(to)}`);
  log('docs/performance.md results block updated');
}

// ---------------------------------------------------------------- environment

/** The service runs from dist/ (decorator metadata needs tsc): build it when src/ is newer. */
function ensureBuilt(): void {
  const newest = (dir: string): number =>
    readdirSync(dir, { withFileTypes: true }).reduce((latest, entry) => {
      const path = join(dir, entry.name);
      return Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
    }, 0);
  const entry = join(ROOT, 'dist', 'main.js');
  const built = existsSync(entry) ? statSync(entry).mtimeMs : 0;
  // BENCH_BUILD=1 always builds, BENCH_BUILD=0 never does (runs whatever dist/ holds).
  if (process.env.BENCH_BUILD === '0' || (built >= newest(join(ROOT, 'src')) && process.env.BENCH_BUILD !== '1')) return;
  log('building the service (npm run build: tsc, and the portal\'s static files)');
  const started = Date.now();
  execFileSync('npm', ['run', '--silent', 'build'], { cwd: ROOT, stdio: 'inherit' });
  log(`built in ${Date.now() - started} ms`);
}

/**
 * Catch-up readers only read events older than every open transaction of the whole server
 * (see docs/architecture.md, "Global order"): a transaction left open in any database of it
 * stalls read-your-writes for every request. Say so before measuring, and wait a little.
 */
async function reportBlockingTransactions(): Promise<void> {
  const adminUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const client = new Client({ connectionString: adminUrl });
  await client.connect();
  try {
    for (let waited = 0; ; waited += 5) {
      const rows = await client.query<{ pid: number; datname: string; state: string; age: number }>(
        `SELECT pid, datname, state, extract(epoch FROM now() - xact_start)::float AS age FROM pg_stat_activity
          WHERE backend_xid IS NOT NULL AND pid <> pg_backend_pid() AND now() - xact_start > interval '5 seconds'`,
      );
      if (rows.rows.length === 0) return;
      const list = rows.rows.map((row) => `pid ${row.pid} (${row.datname}, ${row.state}, ${Math.round(row.age)} s)`).join(', ');
      if (waited >= 60) {
        log(`WARNING: transactions still open on the server hold back every projection: ${list}; the figures will show it`);
        return;
      }
      if (waited === 0) log(`waiting for long transactions elsewhere on the server to end (they stall projections): ${list}`);
      await sleep(5000);
    }
  } finally {
    await client.end();
  }
}

async function createDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const adminUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `bench_${randomBytes(5).toString('hex')}`;
  const asAdmin = async (sql: string) => {
    const client = new Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await asAdmin(`CREATE DATABASE "${name}" TEMPLATE template0`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  log(`fresh database ${name}`);
  return { url: url.toString(), drop: () => asAdmin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`) };
}

async function describeMachine(): Promise<Record<string, string | number>> {
  const adminUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const client = new Client({ connectionString: adminUrl });
  await client.connect();
  const setting = async (name: string) => (await client.query<{ v: string }>(`SELECT current_setting($1) AS v`, [name])).rows[0].v;
  try {
    let pgbench = '';
    try {
      pgbench = execFileSync(pgbenchPath() ?? 'pgbench', ['--version']).toString().trim();
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

main().catch((error: unknown) => {
  log(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  process.exit(1);
});

function sumMb(...parts: (number | null)[]): number | null {
  return parts.some((part) => part === null) ? null : round(parts.reduce<number>((sum, part) => sum + (part ?? 0), 0), 1);
}
