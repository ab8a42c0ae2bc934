/**
 * The service benchmark: `npm run bench` (`-- --quick` for about eleven minutes in PostgreSQL mode, `-- --json`
 * to print the results as one JSON object on the last line of stdout).
 *
 * Starts the compiled service (dist/main.js) as a second process on a fresh PostgreSQL
 * database and loads it over loopback HTTP with autocannon, in one run:
 *   - LIMIT: pgbench -M prepared, one event INSERT + one conditional balance UPDATE per transaction;
 *   - topups spread over many wallets, on one hot wallet, and on a wallet holding a long history;
 *   - GET /balance, and the same authenticated read on a bare Fastify server (the framework baseline);
 *   - a concurrency sweep (throughput and p99 against connections) for the chart;
 *   - a plain CRUD peer of the topup (bench/peer/) beside the service: topup_vs_crud in alternating
 *     windows, the latency of both at fixed offered rates (open model), and the cost per topup of each;
 *   - `verify` (the six money invariants) and a count of debits against accepted topups;
 * then the same scenarios in embedded mode (the service's own PostgreSQL server) beside them.
 * Writes bench/results/latest.json, latest.md and concurrency.svg (or --out DIR).
 */
import { loadavg, tmpdir } from 'node:os';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { renderChart, ChartSeries } from './lib/chart';
import { pgbenchPath } from './lib/pgbench';
import { Plan, PlanName, planFor } from './lib/plan';
import { log, round } from './lib/util';
import { markdownReport } from './lib/report';
import { BenchResults, ModeResults } from './lib/types';
import { Scenario } from './lib/scenario';
import { idleMachineBusy } from './lib/cpu-usage';
import { judgeQuietness } from './lib/reference-run';
import { ROOT, describeMachine, ensureBuilt, reportBlockingTransactions } from './lib/environment';
import { embeddedTargetsOf, targetsOf } from './lib/targets';
import { runEmbedded } from './scenarios/embedded-mode';
import { runPostgres } from './scenarios/postgres-mode';
import { finishScenarioProgress, startScenarioProgress } from './scenarios/steps';

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
  /** Seconds the cost table waits for PostgreSQL's row counts (the plan's statsWaitSeconds otherwise). */
  statsWait: number | null;
  /** Re-render latest.md and concurrency.svg from a results file instead of running. */
  render: string | null;
}

function parseArgs(argv: string[]): Args {
  const args: Args = {
    plan: 'full',
    json: false,
    outDir: null,
    keepDb: false,
    embedded: null,
    updateDocs: false,
    rssOrders: null,
    embeddedRssOrders: null,
    rssMinutes: null,
    statsWait: null,
    render: null,
  };
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
    else if (arg === '--stats-wait') args.statsWait = Number(argv[++i]);
    else if (arg === '--render') args.render = resolve(argv[++i] ?? '');
    else if (arg === '--help' || arg === '-h') {
      process.stdout.write(
        'npm run bench -- [--quick | --tiny] [--json] [--out DIR] [--no-embedded] [--rss-orders N] [--embedded-rss-orders N] [--rss-minutes M] [--stats-wait S] [--keep-db] [--update-docs] [--render RESULTS.json]\n',
      );
      process.exit(0);
    } else throw new Error(`unknown argument ${arg}`);
  }
  if (process.env.BENCH_TINY === '1') args.plan = 'tiny';
  return args;
}

/**
 * The scenarios a plan measures, for the progress count: PostgreSQL mode's seven, two per
 * further sweep level and six per pair (LIMIT/topup at two connection counts, and hot/history),
 * embedded mode's five, two per pair and one per further sweep level when it sweeps (the level
 * of the plan's own connections reuses that scenario's figures).
 */
function plannedScenarios(plan: Plan): number {
  const levels = plan.sweep.filter((level) => level !== plan.connections).length;
  // The CRUD peer: four windows per pair (two connection counts), two per offered rate, and the cost windows.
  const crud = 4 * plan.pairs + 2 * plan.openRates.length + 2 * (2 + plan.openRates.length);
  return (
    7 +
    2 * levels +
    6 * plan.pairs +
    crud +
    (plan.embedded ? 5 + 2 * plan.pairs + (plan.embeddedSweep ? levels : 0) : 0)
  );
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
  if (args.statsWait !== null) plan.statsWaitSeconds = args.statsWait;
  if (args.embedded !== null) plan.embedded = args.embedded;
  const started = new Date();
  log(
    `plan ${plan.name}: ${plan.connections} connections, ${plan.durationSeconds}s per scenario, ${plan.wallets} wallets, ${plan.historyEvents} history events`,
  );
  if (!pgbenchPath()) throw new Error('pgbench is required for the LIMIT baseline (set PGBENCH to its path)');

  ensureBuilt();
  await reportBlockingTransactions();
  const machine = await describeMachine();
  // Read before anything of the bench runs: how busy the machine is on its own.
  const idleBusyBefore = await idleMachineBusy(plan.idleSampleSeconds * 1000);
  log(
    `machine ${idleBusyBefore === null ? 'busy share unknown' : `${Math.round(idleBusyBefore * 100)} % busy`} before the run, load average ${machine.load_average_start}`,
  );
  startScenarioProgress(plannedScenarios(plan));
  const postgres = await runPostgres(plan, args);
  const embedded = plan.embedded ? await runEmbedded(plan) : null;
  finishScenarioProgress();
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
    quietness: judgeQuietness({
      idleBusyBefore,
      loadAverageStart: Number(machine.load_average_start),
      othersBusy: [postgres, ...(embedded ? [embedded] : [])].flatMap(othersBusyOf),
      othersBusyInPairs: othersBusyInPairsOf(postgres),
    }),
  };

  const outDir =
    args.outDir ??
    (plan.name === 'tiny' ? mkdtempSync(join(tmpdir(), 'bench-results-')) : join(ROOT, 'bench', 'results'));
  mkdirSync(outDir, { recursive: true });
  writeFileSync(join(outDir, 'latest.json'), `${JSON.stringify(results, null, 2)}\n`);
  writeFileSync(join(outDir, 'concurrency.svg'), chartOf(results));
  const report = markdownReport(results);
  writeFileSync(join(outDir, 'latest.md'), report);
  if (args.updateDocs) {
    if (results.quietness?.reference) updateDocs(report);
    else
      log(
        `docs/performance.md left as it is: not a reference run (${results.quietness?.not_reference_because.join('; ') ?? 'no reading'})`,
      );
  }
  log(`results written to ${outDir}`);
  process.stderr.write(`\n${report}\n`);
  if (args.json) process.stdout.write(`${JSON.stringify(results)}\n`);
}

/** The share of the machine other processes took in each measured window of a mode: scenarios, sweep levels, pairs. */
function othersBusyOf(mode: ModeResults): (number | null | undefined)[] {
  const named = Object.values(mode.scenarios).filter((scenario): scenario is Scenario => scenario !== null);
  const open = (mode.crud?.open_model.points ?? []).flatMap((point) => [point.service, point.peer]);
  const windows = [...named, ...mode.sweep.topup, ...mode.sweep.limit, ...open].map(
    (scenario) => scenario.cpu?.others_busy,
  );
  return [...windows, ...othersBusyInPairsOf(mode)];
}

/** The same in the pairs' windows, which decide topup_vs_limit, history_vs_fresh and topup_vs_crud. */
function othersBusyInPairsOf(mode: ModeResults): (number | null | undefined)[] {
  const pairs = [
    ...(mode.pairs ? [...mode.pairs.at_connections.pairs, ...mode.pairs.at_one.pairs] : []),
    ...(mode.history_pairs?.pairs ?? []),
    ...(mode.crud?.pairs ? [...mode.crud.pairs.at_connections.pairs, ...mode.crud.pairs.at_one.pairs] : []),
  ];
  return pairs.map((pair) => pair.others_busy);
}

function chartOf(results: BenchResults): string {
  const series: ChartSeries[] = [
    { name: 'topup, postgres (service)', color: '#1f77b4', points: results.postgres.sweep.topup },
    { name: 'LIMIT (pgbench insert + update)', color: '#d62728', dashed: true, points: results.postgres.sweep.limit },
  ];
  if (results.embedded)
    series.push({
      name: 'topup, embedded (own PostgreSQL server)',
      color: '#2ca02c',
      points: results.embedded.sweep.topup,
    });
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

main().catch((error: unknown) => {
  log(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  process.exit(1);
});
