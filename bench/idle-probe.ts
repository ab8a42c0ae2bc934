/**
 * What the first seconds after a lull cost: loads the compiled service at 64 connections (its JIT warm), then, after
 * each pause of `idle-seconds` without requests, at one connection in 1-second windows, each with its rate and CPU per
 * topup (the service's own, PostgreSQL's) and how much of the service's optimised code V8 threw away meanwhile
 * ("weak objects" deoptimisations, read from --trace-deopt). The bench's pairs give each side such a pause before
 * its windows, as traffic with gaps does (decision 0175).
 *   npx tsx bench/idle-probe.ts [idle-seconds=10] [rounds=2] [wallets=100]
 * (IDLE_PROBE_FILL_SECONDS=20 how long the 64-connection load runs first; BENCH_SERVICE_NODE_ARGS=--memory-reducer
 *  starts the service with V8's memory reducer on again, to compare)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { admin } from './lib/admin';
import { withCpuShare } from './lib/cpu-usage';
import { createDatabase, ROOT } from './lib/environment';
import { topupLoad } from './lib/load';
import { ServiceProcess } from './lib/service';
import { sleep } from './lib/util';

const WINDOWS_AFTER_IDLE = 8;

async function main(): Promise<void> {
  const [idleSeconds, rounds, wallets] = [10, 2, 100].map((fallback, index) =>
    Number(process.argv[index + 2] ?? fallback),
  );
  const fillSeconds = Number(process.env.IDLE_PROBE_FILL_SECONDS ?? 20);
  const scratch = await createDatabase('idleprobe');
  const dataDir = mkdtempSync(join(tmpdir(), 'idleprobe-'));
  const service = await ServiceProcess.start({
    root: ROOT,
    mode: 'postgres',
    databaseUrl: scratch.url,
    dataDir,
    nodeArgs: ['--trace-deopt'],
  });
  let discarded = 0;
  service.onStdout((text) => (discarded += text.split('for deoptimization, reason: weak objects').length - 1));
  try {
    const keys = (await admin.partners(service.url, 'idleprobe', wallets)).map((partner) => partner.key);
    await topupLoad({ url: service.url, connections: 64, durationSeconds: fillSeconds }, keys);
    for (let round = 1; round <= rounds; round++) {
      const before = discarded;
      await sleep(idleSeconds * 1000);
      const windows: string[] = [];
      for (let second = 0; second < WINDOWS_AFTER_IDLE; second++) {
        const { result, cpu } = await withCpuShare(
          service.pid,
          () => topupLoad({ url: service.url, connections: 1, durationSeconds: 1 }, keys),
          (r) => r.ok,
        );
        windows.push(`${Math.round(result.rps)}/s ${cpu?.service_ms ?? '?'}+${cpu?.postgres_ms ?? '?'} ms`);
      }
      console.log(
        `round ${round}, after ${idleSeconds} s idle (${discarded - before} optimised functions discarded): ${windows.join(', ')}`,
      );
    }
  } finally {
    await service.stop();
    rmSync(dataDir, { recursive: true, force: true });
    await scratch.drop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
