import { tmpdir } from 'node:os';
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { PostgresDatabase } from '../../src/infrastructure/sql/postgres-database';
import { getLoad, LoadResult, topupLoad } from '../lib/load';
import { prepareLimit } from '../lib/pgbench';
import { Plan } from '../lib/plan';
import { longRun as runLongRun } from '../lib/long-run';
import { seedWalletHistory } from '../lib/seed-history';
import { SERVICE_DUE_WORK_SQL, ServiceProcess } from '../lib/service';
import { log, ratio } from '../lib/util';
import { ModeResults } from '../lib/types';
import { Scenario } from '../lib/scenario';
import {
  coldStart,
  measured,
  measuredBareBalance,
  measuredHistoryPairs,
  measuredLimit,
  moneyCheck,
  runVerify,
  setupPartners,
  waitForBalance,
  watchBacklog,
  drainBacklog,
} from './steps';
import { ROOT, createDatabase } from '../lib/environment';
import { measureInterleavedPairs } from '../lib/interleaved-pairs';
import { sqlStatementsSoFar } from '../lib/statement-count';
import { runCrudComparison } from './crud-peer';

/** PostgreSQL mode: the service on a fresh database of the machine's server, measured beside the LIMIT baseline. */
export async function runPostgres(plan: Plan, args: { keepDb: boolean }): Promise<ModeResults> {
  const database = await createDatabase();
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-pg-'));
  let service: ServiceProcess | null = null;
  try {
    const setupStarted = Date.now();
    service = await ServiceProcess.start({ root: ROOT, mode: 'postgres', databaseUrl: database.url, dataDir });
    const { spread, hot, historic } = await setupPartners(service.url, plan.wallets);
    const db = new PostgresDatabase({
      connectionString: database.url,
      maxConnections: 2,
      applicationName: 'bench-seed',
    });
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
    const backlogDb = new PostgresDatabase({
      connectionString: database.url,
      maxConnections: 1,
      applicationName: 'bench-backlog',
    });
    watchBacklog(
      async () => Number((await backlogDb.query<{ n: string }>(SERVICE_DUE_WORK_SQL))[0].n),
      () =>
        backlogDb
          .exec('CHECKPOINT')
          .catch((error: unknown) =>
            log(`CHECKPOINT refused (${String(error)}); scenarios may pay for earlier writes`),
          ),
    );

    const c = plan.connections;
    const counter = { accepted: 0, sent: 0 };
    const count = async (pending: Promise<LoadResult>): Promise<LoadResult> => {
      const result = await pending;
      counter.accepted += result.ok;
      counter.sent += result.sent;
      return result;
    };
    const withRss = (result: Scenario): Scenario => ({ ...result, rss_mb: service?.rssMb() ?? null });
    const running = service;
    const statements = (): Promise<number | null> => sqlStatementsSoFar(running.url);

    await drainBacklog();
    log(`LIMIT baseline: pgbench ${c} clients`);
    const limit = await measuredLimit('limit', database.url, c, plan.durationSeconds, service.pid);

    const topupSpread = await measured(
      'topup_spread',
      plan,
      (seconds) =>
        count(
          topupLoad(
            { url: service!.url, connections: c, durationSeconds: seconds },
            spread.map((p) => p.key),
          ),
        ),
      service.pid,
      statements,
    );
    // LIMIT again, right after the topups it is compared with: the ratio uses the mean of the two runs.
    await drainBacklog();
    const limitAgain = await measuredLimit('limit again', database.url, c, plan.durationSeconds, service.pid);
    const topupHot = await measured(
      'topup_hot',
      plan,
      (seconds) => count(topupLoad({ url: service!.url, connections: c, durationSeconds: seconds }, [hot.key])),
      service.pid,
      statements,
    );
    const cold = await coldStart(service.url, historic.key);
    counter.accepted += 1;
    counter.sent += 1;
    log(`history wallet: first topup (cold lane, reads ${seed.toRevision + 1} events) took ${cold} ms`);
    const topupHistory = await measured(
      'topup_history',
      plan,
      (seconds) => count(topupLoad({ url: service!.url, connections: c, durationSeconds: seconds }, [historic.key])),
      service.pid,
      statements,
    );
    // The ratio that decides history_vs_fresh: the two wallets in alternating windows, so a service still speeding up weighs on both alike.
    const historyPairs =
      plan.pairs > 0
        ? await measuredHistoryPairs(
            'pair',
            plan,
            (key, seconds) => count(topupLoad({ url: running.url, connections: c, durationSeconds: seconds }, [key])),
            { fresh: hot.key, history: historic.key },
            running.pid,
            statements,
          )
        : null;
    const balance = await measured(
      'balance',
      plan,
      (seconds) =>
        getLoad(
          { url: service!.url, connections: c, durationSeconds: seconds },
          '/v1/partner/balance',
          spread.map((p) => p.key),
        ),
      service.pid,
      statements,
    );
    const balanceBare = await measuredBareBalance(
      'balance_bare',
      plan,
      database.url,
      c,
      spread.map((p) => p.key),
    );

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
      const t = await measured(
        `topup_spread @${level}`,
        { ...plan, durationSeconds: plan.sweepSeconds, warmupSeconds: Math.min(1, plan.warmupSeconds) },
        (seconds) =>
          count(
            topupLoad(
              { url: service!.url, connections: level, durationSeconds: seconds },
              spread.map((p) => p.key),
            ),
          ),
        service.pid,
      );
      sweepTopup.push(t);
    }

    // The ratio that decides topup_vs_limit: short windows, LIMIT and topups alternating, so both see the same machine.
    const pairsAt = async (connections: number): Promise<NonNullable<ModeResults['pairs']>['at_one']> => {
      const windowPlan = { ...plan, durationSeconds: plan.pairSeconds, warmupSeconds: Math.min(1, plan.warmupSeconds) };
      const pairs = await measureInterleavedPairs({
        pairs: plan.pairs,
        seconds: plan.pairSeconds,
        connections,
        limit: (seconds) =>
          measuredLimit(`pair limit @${connections}`, database.url, connections, seconds, running.pid),
        topup: () =>
          measured(
            `pair topup @${connections}`,
            windowPlan,
            (seconds) =>
              count(
                topupLoad(
                  { url: running.url, connections, durationSeconds: seconds },
                  spread.map((p) => p.key),
                ),
              ),
            running.pid,
            statements,
          ),
      });
      log(
        `pairs @${connections}: topup/LIMIT median ${pairs.ratio_median} (from ${pairs.ratio_min} to ${pairs.ratio_max}, spread ${pairs.spread_pct} %), ` +
          `topup p50 ${pairs.topup_p50_ms_median} ms, p99 ${pairs.topup_p99_ms_median} ms`,
      );
      return pairs;
    };
    const pairs = plan.pairs > 0 ? { at_connections: await pairsAt(c), at_one: await pairsAt(1) } : null;

    // The plain CRUD peer beside the service: topup_vs_crud, the open-model latency, the cost per topup.
    const crud = await runCrudComparison({
      plan,
      databaseUrl: database.url,
      service: { url: running.url, pid: running.pid },
      serviceKeys: spread.map((p) => p.key),
      countService: count,
    });

    let longRun: ModeResults['memory']['long_run'] = null;
    if (plan.rssOrders > 0) {
      longRun = await runLongRun({
        url: running.url,
        keys: spread.map((p) => p.key),
        connections: c,
        targetOrders: plan.rssOrders,
        minutes: plan.rssMinutes,
        counter,
        count,
        memoryMb: () => running.rssMb(),
        label: 'long run (service RSS)',
      });
    }
    const memory = {
      orders: counter.accepted,
      rss_mb: service.rssMb(),
      peak_rss_mb: service.peakRssMb(),
      long_run: longRun,
    };
    log(`service RSS after ${counter.accepted} orders: ${memory.rss_mb} MB (peak ${memory.peak_rss_mb} MB)`);

    watchBacklog(null, null);
    await backlogDb.close();
    const verify = await runVerify(service.url, plan);
    const countDb = new PostgresDatabase({
      connectionString: database.url,
      maxConnections: 1,
      applicationName: 'bench-count',
    });
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
        topup_vs_limit: pairs
          ? pairs.at_connections.ratio_median
          : ratio(topupSpread.rps, (limit.rps + limitAgain.rps) / 2),
        hot_vs_spread: ratio(topupHot.rps, topupSpread.rps),
        history_vs_fresh: historyPairs ? historyPairs.ratio_median : ratio(topupHistory.rps, topupHot.rps),
        balance_vs_bare: ratio(balance.rps, balanceBare.rps),
        topup_vs_crud: crud.pairs?.at_connections.ratio_median ?? null,
        topup_vs_crud_at_one: crud.pairs?.at_one.ratio_median ?? null,
      },
      sweep: { topup: sweepTopup, limit: sweepLimit },
      pairs,
      history_pairs: historyPairs,
      crud,
      history: {
        events: seed.events,
        seed_ms: seed.ms,
        projection_catch_up_ms: catchUp,
        wallet_events: seed.toRevision + 1,
      },
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
