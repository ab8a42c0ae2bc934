import { Client } from 'pg';
import { CostRow, CrudComparison, CrudPairs, OpenModelPoint, measureCrudPairs } from '../lib/crud-pairs';
import { ROOT } from '../lib/environment';
import { LoadResult, topupLoad } from '../lib/load';
import { OpenLoadResult, openTopupLoad } from '../lib/open-load';
import { PEER_DUE_WORK_SQL, PeerServer, peerMoneyCheck, seedPeerPartners } from '../lib/peer';
import { SERVICE_DUE_WORK_SQL } from '../lib/service';
import { Plan } from '../lib/plan';
import { sqlStatementsSoFar } from '../lib/statement-count';
import { CostMeter, CostSide, TopupCost, measureTopupCost, settled } from '../lib/topup-cost';
import { Scenario } from '../lib/scenario';
import { log, sleep } from '../lib/util';
import { logScenario, measured } from './steps';

export interface CrudContext {
  plan: Plan;
  databaseUrl: string;
  service: { url: string; pid: number };
  /** The service's keys over the plan's wallets. */
  serviceKeys: readonly string[];
  /** Counts the service's topups into its money check (accepted ≤ debits ≤ sent). */
  countService: (pending: Promise<LoadResult>) => Promise<LoadResult>;
}

/**
 * The service beside the plain CRUD peer (bench/peer/) on the same database, in one run:
 * topup_vs_crud in alternating windows at the plan's connections and at one, the latency of
 * both at fixed offered rates (open model), each scenario's cost per topup for both, and the
 * peer's money check at the end.
 */
export async function runCrudComparison(context: CrudContext): Promise<CrudComparison> {
  const { plan, databaseUrl, service } = context;
  const peer = await PeerServer.start(ROOT, databaseUrl);
  const meter = await CostMeter.open(databaseUrl);
  const backlog = new Client({ connectionString: databaseUrl, application_name: 'bench-crud-backlog' });
  await backlog.connect();
  try {
    const seedStarted = Date.now();
    const peerKeys = (await seedPeerPartners(databaseUrl, 'Bench CRUD', plan.wallets)).map((p) => p.key);
    const seedMs = Date.now() - seedStarted;
    log(`CRUD peer: ${peerKeys.length} partners seeded in ${seedMs} ms`);
    const dueCount = async (sql: string): Promise<number> =>
      Number((await backlog.query<{ n: string }>(sql)).rows[0].n);
    const serviceSide: CostSide = {
      pid: service.pid,
      ownsTable: (table) => !table.startsWith('crud_') && !table.startsWith('limit_'),
      statements: async () => {
        // Every statement the service counts is one driver call, so one round trip.
        const count = await sqlStatementsSoFar(service.url);
        return count === null ? null : { statements: count, round_trips: count };
      },
      pendingSettlement: () => dueCount(SERVICE_DUE_WORK_SQL),
    };
    const peerSide: CostSide = {
      pid: peer.pid,
      ownsTable: (table) => table.startsWith('crud_'),
      statements: () => peer.counters(),
      pendingSettlement: () => dueCount(PEER_DUE_WORK_SQL),
    };
    const peerCounter = { accepted: 0, sent: 0 };
    const countPeer = async <R extends LoadResult>(pending: Promise<R>): Promise<R> => {
      const result = await pending;
      peerCounter.accepted += result.ok;
      peerCounter.sent += result.sent;
      return result;
    };
    const countService = async <R extends LoadResult>(pending: Promise<R>): Promise<R> => {
      const result = await pending;
      await context.countService(Promise.resolve(result));
      return result;
    };
    const serviceStatements = (): Promise<number | null> => sqlStatementsSoFar(service.url);
    const peerStatements = async (): Promise<number | null> => (await peer.counters())?.statements ?? null;
    const closed = (url: string, keys: readonly string[], connections: number) => (seconds: number) =>
      topupLoad({ url, connections, durationSeconds: seconds }, keys);
    const open = (url: string, keys: readonly string[], rate: number) => (seconds: number) =>
      openTopupLoad({ url, rate, seconds, keys });

    // Each window starts with the other side's settlement done and its process idle; measured() then
    // drains the service's jobs, checkpoints and warms up.
    const windowPlan = { ...plan, durationSeconds: plan.pairSeconds, warmupSeconds: Math.min(1, plan.warmupSeconds) };
    const serviceWindow = async <R extends LoadResult>(
      name: string,
      planned: Plan,
      load: (s: number) => Promise<R>,
    ) => {
      await settled(peerSide);
      return measured(name, planned, (s) => countService(load(s)), service.pid, serviceStatements);
    };
    const peerWindow = async <R extends LoadResult>(name: string, planned: Plan, load: (s: number) => Promise<R>) => {
      // The service's projections and settlement of its last window run on after its jobs are done.
      await settled(serviceSide);
      await settled(peerSide);
      return measured(name, planned, (s) => countPeer(load(s)), peer.pid, peerStatements);
    };

    // The service has run every scenario before this one; the peer, just started, gets the plan's warm-up
    // once before its first measured window, so that window is not its interpreter's and pool's first seconds.
    await countPeer(closed(peer.url, peerKeys, plan.connections)(plan.warmupSeconds));
    log(`CRUD peer warmed up for ${plan.warmupSeconds} s at ${plan.connections} connections`);

    const pairsAt = async (connections: number): Promise<CrudPairs> => {
      const pairs = await measureCrudPairs({
        pairs: plan.pairs,
        seconds: plan.pairSeconds,
        connections,
        peer: () => peerWindow(`crud pair peer @${connections}`, windowPlan, closed(peer.url, peerKeys, connections)),
        service: () =>
          serviceWindow(
            `crud pair service @${connections}`,
            windowPlan,
            closed(service.url, context.serviceKeys, connections),
          ),
      });
      log(
        `crud pairs @${connections}: service/peer median ${pairs.ratio_median} (from ${pairs.ratio_min} to ${pairs.ratio_max}, spread ${pairs.spread_pct} %), ` +
          `medians ${pairs.service_rps_median} against ${pairs.peer_rps_median} topups/s`,
      );
      return pairs;
    };
    const pairs = plan.pairs > 0 ? { at_connections: await pairsAt(plan.connections), at_one: await pairsAt(1) } : null;

    // Open model: each rate on both sides, the order alternating from one rate to the next.
    const openPlan = { ...plan, durationSeconds: plan.openSeconds, warmupSeconds: Math.min(1, plan.warmupSeconds) };
    const points: OpenModelPoint[] = [];
    for (const [index, rate] of plan.openRates.entries()) {
      const runService = () =>
        serviceWindow(`open service @${rate}/s`, openPlan, open(service.url, context.serviceKeys, rate));
      const runPeer = () => peerWindow(`open peer @${rate}/s`, openPlan, open(peer.url, peerKeys, rate));
      let serviceRun: OpenLoadResult & Scenario;
      let peerRun: OpenLoadResult & Scenario;
      if (index % 2 === 0) {
        serviceRun = await runService();
        peerRun = await runPeer();
      } else {
        peerRun = await runPeer();
        serviceRun = await runService();
      }
      for (const [side, run] of [
        ['service', serviceRun],
        ['peer', peerRun],
      ] as const)
        if (run.missed > 0)
          log(
            `open model @${rate}/s: ${side} missed ${run.missed} of ${run.scheduled} sends (${run.max_in_flight} in flight)`,
          );
      points.push({ offered_rps: rate, service: serviceRun, peer: peerRun });
    }

    // The cost table: one more window per scenario and side, measured from its first request until its orders are settled.
    const cost: CostRow[] = [];
    const sides = { service: serviceSide, peer: peerSide };
    const urls = { service: { url: service.url, keys: context.serviceKeys }, peer: { url: peer.url, keys: peerKeys } };
    const counters = { service: countService, peer: countPeer };
    let statsReported = false;
    const costWindow = async <R extends LoadResult>(
      which: 'service' | 'peer',
      name: string,
      load: (url: string, keys: readonly string[]) => Promise<R>,
    ): Promise<TopupCost & { rps: number; p50_ms: number; p99_ms: number }> => {
      await settled(peerSide);
      await settled(serviceSide);
      await meter.checkpoint();
      if (!statsReported) await sleep(plan.statsWaitSeconds * 1000);
      const { result, cost: measuredCost } = await measureTopupCost(meter, sides[which], plan.statsWaitSeconds, () =>
        counters[which](load(urls[which].url, urls[which].keys)),
      );
      statsReported = true;
      logScenario(`cost ${which} ${name}`, result);
      log(
        `cost ${which} ${name}: per topup ${measuredCost.server_cpu_us ?? '–'} µs server, ${measuredCost.postgres_cpu_us} µs PostgreSQL, ` +
          `${measuredCost.statements ?? '–'} statements, ${measuredCost.rows_written} rows, ${measuredCost.index_entries} index entries, ` +
          `${measuredCost.wal_bytes} WAL bytes; settled ${measuredCost.settle_ms} ms after the load`,
      );
      return { ...measuredCost, rps: result.rps, p50_ms: result.p50_ms, p99_ms: result.p99_ms };
    };
    const costRow = async (
      scenario: string,
      shape: { connections: number | null; offered_rps: number | null },
      load: (url: string, keys: readonly string[]) => Promise<LoadResult>,
      serviceFirst: boolean,
    ): Promise<void> => {
      const first = serviceFirst ? 'service' : 'peer';
      const second = serviceFirst ? 'peer' : 'service';
      const costs = {} as Record<'service' | 'peer', CostRow['service']>;
      costs[first] = await costWindow(first, scenario, load);
      costs[second] = await costWindow(second, scenario, load);
      cost.push({ scenario, ...shape, service: costs.service, peer: costs.peer });
    };
    await costRow(
      `topup_vs_crud @${plan.connections}`,
      { connections: plan.connections, offered_rps: null },
      (url, keys) => topupLoad({ url, connections: plan.connections, durationSeconds: plan.pairSeconds }, keys),
      true,
    );
    await costRow(
      'topup_vs_crud @1',
      { connections: 1, offered_rps: null },
      (url, keys) => topupLoad({ url, connections: 1, durationSeconds: plan.pairSeconds }, keys),
      false,
    );
    for (const [index, rate] of plan.openRates.entries()) {
      await costRow(
        `open model @${rate}/s`,
        { connections: null, offered_rps: rate },
        (url, keys) => openTopupLoad({ url, rate, seconds: plan.openSeconds, keys }),
        index % 2 === 0,
      );
    }

    await settled(peerSide);
    const money = await peerMoneyCheck(databaseUrl, peerCounter);
    if (peer.lastErrors) log(`CRUD peer's stderr: ${peer.lastErrors.slice(-1000)}`);
    return {
      peer: { wallets: peerKeys.length, seed_ms: seedMs },
      pairs,
      open_model: { seconds_per_window: plan.openSeconds, points },
      cost,
      money,
    };
  } finally {
    await backlog.end();
    await meter.close();
    await peer.stop();
  }
}
