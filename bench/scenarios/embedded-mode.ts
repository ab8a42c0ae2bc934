import { tmpdir } from 'node:os';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { embeddedSocketConnectionString } from '../../src/infrastructure/sql/embedded/server-endpoint';
import { PostgresDatabase } from '../../src/infrastructure/sql/postgres-database';
import { getLoad, LoadResult, topupLoad } from '../lib/load';
import { Plan } from '../lib/plan';
import { longRun as runLongRun } from '../lib/long-run';
import { seedWalletHistory } from '../lib/seed-history';
import { ServiceProcess } from '../lib/service';
import { embeddedServerRssMb, log, ratio } from '../lib/util';
import { ModeResults } from '../lib/types';
import { Scenario } from '../lib/scenario';
import {
  coldStart,
  measured,
  measuredBareBalance,
  measuredHistoryPairs,
  moneyCheck,
  runVerify,
  setupPartners,
  waitForBackgroundIdle,
  waitForBalance,
} from './steps';
import { ROOT, sumMb } from '../lib/environment';

/** Embedded mode: the service with its own PostgreSQL server, measured as PostgreSQL mode is. */
export async function runEmbedded(plan: Plan): Promise<ModeResults> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-embedded-'));
  // As root the server runs as the postgres account, which must be able to enter the folder.
  chmodSync(dataDir, 0o711);
  const databaseUrl = embeddedSocketConnectionString(dataDir);
  if (!databaseUrl)
    throw new Error(`the bench needs the embedded server on a Unix socket; ${dataDir} is too long a path`);
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
    log(
      `embedded: first start on a fresh folder ${firstStartMs} ms, restart ${restartMs} ms (process start to /health)`,
    );
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
    const topupSpread = await measured(
      'embedded topup_spread',
      eplan,
      (s) =>
        count(
          topupLoad(
            { url, connections: c, durationSeconds: s },
            spread.map((p) => p.key),
          ),
        ),
      service.pid,
    );
    const topupHot = await measured(
      'embedded topup_hot',
      eplan,
      (s) => count(topupLoad({ url, connections: c, durationSeconds: s }, [hot.key])),
      service.pid,
    );
    const cold = await coldStart(url, historic.key);
    counter.accepted += 1;
    counter.sent += 1;
    log(`embedded history wallet: first topup (cold lane) took ${cold} ms`);
    const topupHistory = await measured(
      'embedded topup_history',
      eplan,
      (s) => count(topupLoad({ url, connections: c, durationSeconds: s }, [historic.key])),
      service.pid,
    );
    const historyPairs =
      plan.pairs > 0
        ? await measuredHistoryPairs(
            'embedded pair',
            eplan,
            (key, s) => count(topupLoad({ url, connections: c, durationSeconds: s }, [key])),
            { fresh: hot.key, history: historic.key },
            service.pid,
          )
        : null;
    const balance = await measured(
      'embedded balance',
      eplan,
      (s) =>
        getLoad(
          { url, connections: c, durationSeconds: s },
          '/v1/partner/balance',
          spread.map((p) => p.key),
        ),
      service.pid,
    );
    const sweepTopup: Scenario[] = [];
    for (const level of plan.embeddedSweep ? plan.sweep : [c]) {
      if (level === c) {
        sweepTopup.push(topupSpread);
        continue;
      }
      sweepTopup.push(
        await measured(
          `embedded topup_spread @${level}`,
          { ...eplan, durationSeconds: plan.sweepSeconds, warmupSeconds: Math.min(1, eplan.warmupSeconds) },
          (s) =>
            count(
              topupLoad(
                { url, connections: level, durationSeconds: s },
                spread.map((p) => p.key),
              ),
            ),
          service.pid,
        ),
      );
    }
    let embeddedLongRun: ModeResults['memory']['long_run'] = null;
    if (plan.embeddedRssOrders > 0) {
      const running = service;
      // The embedded mode's footprint is the service and its own database server together.
      embeddedLongRun = await runLongRun({
        url,
        keys: spread.map((p) => p.key),
        connections: c,
        targetOrders: plan.embeddedRssOrders,
        minutes: plan.rssMinutes,
        counter,
        count,
        memoryMb: () => sumMb(running.rssMb(), embeddedServerRssMb(dataDir)),
        label: 'embedded long run (service RSS + server PSS)',
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

    const balanceBare = await measuredBareBalance(
      'embedded balance_bare',
      eplan,
      databaseUrl,
      c,
      spread.map((p) => p.key),
    );
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
        history_vs_fresh: historyPairs ? historyPairs.ratio_median : ratio(topupHistory.rps, topupHot.rps),
        balance_vs_bare: ratio(balance.rps, balanceBare.rps),
      },
      sweep: { topup: sweepTopup, limit: [] },
      history_pairs: historyPairs,
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
  } finally {
    await db.close();
    await service?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
