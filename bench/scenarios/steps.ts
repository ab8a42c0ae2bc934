import { SqlDatabase } from '../../src/infrastructure/sql/sql-database';
import { admin, BenchPartner } from '../lib/admin';
import { waitForProcessIdle, withCpuShare } from '../lib/cpu-usage';
import { BareServer } from '../lib/bare';
import { ROOT } from '../lib/environment';
import { getLoad, LoadResult, nextIdempotencyKey } from '../lib/load';
import { HistoryPairs, measureHistoryPairs } from '../lib/history-pairs';
import { runLimit } from '../lib/pgbench';
import { Plan } from '../lib/plan';
import { ProgressReporter } from '../../src/interface/cli/progress-reporter';
import { log, round, setLogFooter, sleep } from '../lib/util';
import { ModeResults } from '../lib/types';
import { Scenario } from '../lib/scenario';

/* The steps every scenario is made of: onboarding, the measured runs, and the checks after them. */

export async function setupPartners(
  url: string,
  wallets: number,
): Promise<{ spread: BenchPartner[]; hot: BenchPartner; historic: BenchPartner }> {
  const started = Date.now();
  const spread = await admin.partners(url, 'Bench spread', wallets);
  const hot = await admin.partner(url, 'Bench hot');
  const historic = await admin.partner(url, 'Bench history');
  log(`${wallets + 2} partners onboarded and funded in ${Date.now() - started} ms`);
  return { spread, hot, historic };
}

/** Settlement jobs due and not done: the background work a scenario starts with (PostgreSQL mode). */
let pendingJobs: (() => Promise<number>) | null = null;

/** What drainBacklog and measured wait for and count (null: nothing, as in embedded mode). */
export function watchBacklog(jobs: (() => Promise<number>) | null, flush: (() => Promise<void>) | null): void {
  pendingJobs = jobs;
  checkpoint = flush;
}

/**
 * Waits until the settlement of earlier scenarios' orders is done, so each scenario starts from
 * the same state and competes only with the settlement of its own orders (PostgreSQL mode).
 */
export async function drainBacklog(): Promise<void> {
  if (!pendingJobs) return;
  const started = Date.now();
  const first = await pendingJobs();
  if (first > 0) {
    for (let pending = first; pending > 0 && Date.now() - started < 15 * 60_000; pending = await pendingJobs())
      await sleep(500);
    const seconds = (Date.now() - started) / 1000;
    log(
      `settlement backlog of ${first} jobs done in ${round(seconds, 1)} s (${round(first / seconds, 0)} jobs/s, no load)`,
    );
  }
  // The previous scenario's dirty pages are written now, not during the next one.
  await checkpoint?.();
}

/** CHECKPOINT on the bench database's server (PostgreSQL mode; needs a superuser or pg_checkpoint). */
let checkpoint: (() => Promise<void>) | null = null;

/** Settlement of earlier orders done, then a warm-up (not counted in the figures), then the measured run. */
export async function measured<R extends LoadResult = LoadResult>(
  name: string,
  plan: Plan,
  load: (seconds: number) => Promise<R>,
  serverPid: number | null,
  statementsSoFar?: () => Promise<number | null>,
): Promise<R & Scenario> {
  await drainBacklog();
  if (plan.warmupSeconds > 0) await load(plan.warmupSeconds);
  const backlog = pendingJobs ? await pendingJobs().catch(() => null) : null;
  const statementsBefore = statementsSoFar ? await statementsSoFar() : null;
  const { result: run, cpu } = await withCpuShare(
    serverPid,
    () => load(plan.durationSeconds),
    (r) => r.ok,
  );
  const statementsAfter = statementsSoFar ? await statementsSoFar() : null;
  const statements =
    statementsBefore !== null && statementsAfter !== null && run.ok > 0
      ? round((statementsAfter - statementsBefore) / run.ok, 2)
      : null;
  const result: R & Scenario = {
    ...run,
    cpu,
    ...(backlog === null ? {} : { jobs_pending_at_start: backlog }),
    ...(statementsSoFar ? { statements_per_request: statements } : {}),
  };
  logScenario(name, result);
  return result;
}

/**
 * Topups on the fresh hot wallet and on the history wallet in alternating windows of
 * `plan.pairSeconds` (`plan.pairs` pairs at the plan's connections, each window after its own
 * short warm-up): the pairs whose median is history_vs_fresh.
 */
export async function measuredHistoryPairs(
  label: string,
  plan: Plan,
  topups: (key: string, seconds: number) => Promise<LoadResult>,
  keys: { fresh: string; history: string },
  serverPid: number | null,
  statementsSoFar?: () => Promise<number | null>,
): Promise<HistoryPairs> {
  const windowPlan = { ...plan, durationSeconds: plan.pairSeconds, warmupSeconds: Math.min(1, plan.warmupSeconds) };
  const window = (scenario: string, key: string) => () =>
    measured(`${label} ${scenario}`, windowPlan, (seconds) => topups(key, seconds), serverPid, statementsSoFar);
  const pairs = await measureHistoryPairs({
    pairs: plan.pairs,
    seconds: plan.pairSeconds,
    connections: plan.connections,
    fresh: window('topup_hot', keys.fresh),
    history: window('topup_history', keys.history),
  });
  log(
    `${label}s: history/fresh median ${pairs.ratio_median} (from ${pairs.ratio_min} to ${pairs.ratio_max}, spread ${pairs.spread_pct} %), ` +
      `medians ${pairs.history_rps_median} against ${pairs.fresh_rps_median} topups/s`,
  );
  return pairs;
}

/** The LIMIT baseline with its CPU share (the service idles meanwhile; its share shows what background work it still did). */
export async function measuredLimit(
  name: string,
  databaseUrl: string,
  connections: number,
  seconds: number,
  servicePid: number,
): Promise<Scenario> {
  const waited = await waitForProcessIdle(servicePid);
  if (waited > 1000) log(`waited ${waited} ms for the service to finish background work before LIMIT`);
  const { result, cpu } = await withCpuShare(
    servicePid,
    () => runLimit(databaseUrl, connections, seconds),
    (r) => r.ok,
  );
  const scenario: Scenario = { ...result, cpu };
  logScenario(name, scenario);
  return scenario;
}

let scenarios: { reporter: ProgressReporter; done: number } | null = null;

/**
 * Counts the measured scenarios of the run on stderr (a bar on a terminal, JSON progress lines
 * otherwise). `total` is what the plan is expected to measure; the count may pass it.
 */
export function startScenarioProgress(total: number): void {
  const reporter = new ProgressReporter(process.stderr, 'bench', total, { unit: 'scenarios', rateUnit: null });
  scenarios = { reporter, done: 0 };
  setLogFooter(() => reporter.redraw());
}

export function finishScenarioProgress(): void {
  setLogFooter(null);
  scenarios?.reporter.finish();
  scenarios = null;
}

export function logScenario(name: string, result: Scenario): void {
  const problems =
    result.non_2xx || result.errors
      ? ` non-2xx ${result.non_2xx} errors ${result.errors} ${JSON.stringify(result.statuses)}`
      : '';
  const backlog = 'jobs_pending_at_start' in result ? `, ${String(result.jobs_pending_at_start)} jobs pending` : '';
  const cpu = result.cpu
    ? `; CPU ms per request: server ${result.cpu.service_ms ?? '–'}, PostgreSQL ${result.cpu.postgres_ms}, client ${result.cpu.client_ms}; ` +
      `machine ${Math.round(result.cpu.machine_busy * 100)} % busy (others ${Math.round(result.cpu.others_busy * 100)} %)`
    : '';
  const statements =
    typeof result.statements_per_request === 'number'
      ? `; ${result.statements_per_request} statements per request`
      : '';
  if (scenarios) scenarios.reporter.update(++scenarios.done);
  log(
    `${name.padEnd(24)} ${String(result.rps).padStart(9)} req/s  p50 ${result.p50_ms} ms  p99 ${result.p99_ms} ms  (${result.ok} ok, c=${result.connections}${backlog})${problems}${cpu}${statements}`,
  );
}

/** The first topup on a wallet whose lane is cold reads the whole stream once. */
export async function coldStart(url: string, key: string): Promise<number> {
  const started = process.hrtime.bigint();
  const answer = await admin.topup(url, key, nextIdempotencyKey());
  if (answer.status !== 200) throw new Error(`cold-start topup failed: ${answer.status} ${answer.text}`);
  return round(Number(process.hrtime.bigint() - started) / 1e6, 1);
}

export async function waitForBalance(url: string, key: string, expected: string, timeoutMs: number): Promise<number> {
  const started = Date.now();
  for (;;) {
    const available = await admin.balance(url, key);
    if (Number(available) >= Number(expected)) return Date.now() - started;
    if (Date.now() - started > timeoutMs) throw new Error(`balance stayed at ${available}, expected ${expected}`);
    await sleep(100);
  }
}

/** Lets the onboarding jobs (sandbox grants) finish before the service is stopped for seeding. */
export async function waitForBackgroundIdle(url: string, key: string): Promise<void> {
  let last = '';
  for (let stable = 0; stable < 5;) {
    const now = await admin.balance(url, key);
    stable = now === last ? stable + 1 : 0;
    last = now;
    await sleep(200);
  }
}

export async function runVerify(url: string, plan: Plan): Promise<ModeResults['verify']> {
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
  log(
    `verify: ${result.ok ? 'ok' : 'FAILED'} (${result.events} events, ${result.orders} orders, ${breaches} breaches) in ${result.ms} ms`,
  );
  if (!result.ok) log(JSON.stringify(answer.body).slice(0, 2000));
  return result;
}

/**
 * No money lost or moved twice: every topup answered 200 has its debit in the log
 * (debits >= accepted), and no debit exists beyond the requests sent (debits <= sent; a
 * request still in flight when a timed run stops is debited but never answered). verify
 * checks, besides, that no key moved money twice and every debit's request was answered 200.
 */
export async function moneyCheck(
  db: SqlDatabase,
  counter: { accepted: number; sent: number },
): Promise<ModeResults['money']> {
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
  log(
    `money: ${counter.accepted} topups answered 200, ${debits} debits in the log for ${keys} keys, at most ${counter.sent} sent: ${consistent ? 'consistent' : 'INCONSISTENT'}`,
  );
  return money;
}

/** GET /balance on the bare Fastify server (same SQL, no Nest), the baseline of balance_vs_bare. */
export async function measuredBareBalance(
  name: string,
  plan: Plan,
  databaseUrl: string,
  connections: number,
  keys: readonly string[],
): Promise<LoadResult> {
  const bare = await BareServer.start(ROOT, { databaseUrl });
  try {
    return await measured(
      name,
      plan,
      (seconds) => getLoad({ url: bare.url, connections, durationSeconds: seconds }, '/v1/partner/balance', keys),
      bare.pid,
    );
  } finally {
    await bare.stop();
  }
}
