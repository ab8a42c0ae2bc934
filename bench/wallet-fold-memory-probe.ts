/**
 * What a cold wallet with a long history and no snapshot costs the service's memory: starts the compiled service on
 * a fresh database, gives one wallet a history of `events` events straight into the log (no snapshot, as after an
 * import or a release that changed the fold), and reports the service's peak resident set (VmHWM) before and after
 * the wallet's first topup, which folds the whole history. With PROBE_BASELINE_ROOT set to another built checkout,
 * rounds alternate between that build and this one, each on a fresh database and service.
 *   npx tsx bench/wallet-fold-memory-probe.ts [events=100000] [rounds=3]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PostgresDatabase } from '../src/infrastructure/sql/postgres-database';
import { createDatabase, ROOT } from './lib/environment';
import { median } from './lib/interleaved-pairs';
import { seedWalletHistory } from './lib/seed-history';
import { ServiceProcess } from './lib/service';
import { coldStart, setupPartners, waitForBackgroundIdle } from './scenarios/steps';

interface Round {
  build: string;
  peakBeforeMb: number;
  peakAfterMb: number;
  firstTopupMs: number;
}

async function oneRound(root: string, build: string, events: number): Promise<Round> {
  const database = await createDatabase('foldmem');
  const dataDir = mkdtempSync(join(tmpdir(), 'fold-memory-probe-'));
  const service = await ServiceProcess.start({ root, mode: 'postgres', databaseUrl: database.url, dataDir });
  const db = new PostgresDatabase({ connectionString: database.url, maxConnections: 2 });
  try {
    const { historic } = await setupPartners(service.url, 1);
    await waitForBackgroundIdle(service.url, historic.key);
    await seedWalletHistory(db, historic.partnerId, events);
    const peakBeforeMb = service.peakRssMb() ?? NaN;
    const firstTopupMs = await coldStart(service.url, historic.key);
    const peakAfterMb = service.peakRssMb() ?? NaN;
    return { build, peakBeforeMb, peakAfterMb, firstTopupMs };
  } finally {
    await db.close();
    await service.stop();
    rmSync(dataDir, { recursive: true, force: true });
    await database.drop();
  }
}

async function main(): Promise<void> {
  const events = Number(process.argv[2] ?? 100_000);
  const rounds = Number(process.argv[3] ?? 3);
  const builds: [string, string][] = [['this', ROOT]];
  if (process.env.PROBE_BASELINE_ROOT) builds.push(['baseline', process.env.PROBE_BASELINE_ROOT]);
  const results: Round[] = [];
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? builds : [...builds].reverse();
    for (const [build, root] of order) {
      const result = await oneRound(root, build, events);
      results.push(result);
      console.log(
        `${build.padEnd(8)} peak RSS ${result.peakBeforeMb} MB before, ${result.peakAfterMb} MB after the first topup ` +
          `on ${events} events (${result.firstTopupMs} ms)`,
      );
    }
  }
  for (const [build] of builds) {
    const mine = results.filter((result) => result.build === build);
    const growth = mine.map((result) => result.peakAfterMb - result.peakBeforeMb).sort((a, b) => a - b);
    const after = mine.map((result) => result.peakAfterMb).sort((a, b) => a - b);
    console.log(
      `${build.padEnd(8)} median over ${mine.length} rounds: peak RSS ${median(after).toFixed(1)} MB, ` +
        `grown by ${median(growth).toFixed(1)} MB in the first topup`,
    );
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
