/**
 * Does a wallet's long history slow its topups? Starts the compiled service on a fresh database,
 * gives one wallet a history of `events` events (as the bench does) and another none, reads the
 * history once (the cold start), then loads the two wallets in alternating windows at 64
 * connections, so that the database's growth and the machine's moods fall on both alike.
 *   npx tsx bench/wallet-history-probe.ts [events=100000] [pairs=4] [seconds=6]
 */
import { PostgresDatabase } from '../src/infrastructure/sql/postgres-database';
import { withCpuShare } from './lib/cpu-usage';
import { createDatabase, ROOT } from './lib/environment';
import { median } from './lib/interleaved-pairs';
import { topupLoad } from './lib/load';
import { seedWalletHistory } from './lib/seed-history';
import { ServiceProcess } from './lib/service';
import { coldStart, setupPartners, waitForBalance } from './scenarios/steps';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

async function main(): Promise<void> {
  const events = Number(process.argv[2] ?? 100_000);
  const pairs = Number(process.argv[3] ?? 4);
  const seconds = Number(process.argv[4] ?? 6);
  const database = await createDatabase();
  const dataDir = mkdtempSync(join(tmpdir(), 'history-probe-'));
  const service = await ServiceProcess.start({ root: ROOT, mode: 'postgres', databaseUrl: database.url, dataDir });
  const db = new PostgresDatabase({ connectionString: database.url, maxConnections: 2 });
  try {
    const { hot, historic } = await setupPartners(service.url, 1);
    const seed = await seedWalletHistory(db, historic.partnerId, events);
    await waitForBalance(service.url, historic.key, seed.balanceAfter, 600_000);
    console.log(`cold start on ${events} events: ${await coldStart(service.url, historic.key)} ms`);
    const windows: Record<'fresh' | 'history', { rps: number; service: number; postgres: number }[]> = {
      fresh: [],
      history: [],
    };
    const measure = async (which: 'fresh' | 'history') => {
      const key = which === 'fresh' ? hot.key : historic.key;
      const { result, cpu } = await withCpuShare(
        service.pid,
        () => topupLoad({ url: service.url, connections: 64, durationSeconds: seconds }, [key]),
        (r) => r.ok,
      );
      windows[which].push({ rps: result.rps, service: cpu?.service_ms ?? 0, postgres: cpu?.postgres_ms ?? 0 });
      console.log(
        `${which.padEnd(8)} ${result.rps} topups/s, CPU ms per topup: service ${cpu?.service_ms}, PostgreSQL ${cpu?.postgres_ms}`,
      );
    };
    for (let pair = 0; pair < pairs; pair++) {
      const order: ('fresh' | 'history')[] = pair % 2 === 0 ? ['fresh', 'history'] : ['history', 'fresh'];
      for (const which of order) await measure(which);
    }
    const rps = (which: 'fresh' | 'history') => median(windows[which].map((w) => w.rps));
    console.log(`history ÷ fresh, medians of ${pairs} windows each: ${(rps('history') / rps('fresh')).toFixed(2)}`);
  } finally {
    await db.close();
    await service.stop();
    rmSync(dataDir, { recursive: true, force: true });
    await database.drop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
