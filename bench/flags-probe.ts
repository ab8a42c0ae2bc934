/**
 * Two services of one build, A with the service's own node flags and B with more (FLAGS_PROBE_B_ARGS), each on a
 * fresh database of its own, in alternating load windows: what a V8 flag does to the rate, the latency and the CPU
 * per topup, measured in one run rather than in two probes minutes apart.
 *   FLAGS_PROBE_B_ARGS="--max-semi-space-size=64" npx tsx bench/flags-probe.ts [connections=64] [pairs=6] [seconds=8] [wallets=100]
 * (FLAGS_PROBE_FILL_SECONDS=30 loads each side that long at 64 connections first, 20 s by default;
 *  FLAGS_PROBE_OPEN_RATE=400 sends that many requests a second in each window instead, and `connections` is unused)
 * Each window starts with both sides' orders settled and their processes idle; odd pairs run A first.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { admin } from './lib/admin';
import { withCpuShare } from './lib/cpu-usage';
import { createDatabase, ROOT } from './lib/environment';
import { topupLoad } from './lib/load';
import { describeProbeWindow, listedRatios, probeWindowLoad, ProbeWindow } from './lib/probe-window';
import { SERVICE_DUE_WORK_SQL, ServiceProcess } from './lib/service';
import { settled } from './lib/topup-cost';

interface Side {
  name: 'A' | 'B';
  service: ServiceProcess;
  keys: readonly string[];
  pid: number;
  pendingSettlement: () => Promise<number>;
  close: () => Promise<void>;
}

interface Window {
  rps: number;
  p50: number;
  p99: number;
  serviceMs: number;
}

async function startSide(
  name: Side['name'],
  nodeArgs: readonly string[],
  env: Record<string, string>,
  wallets: number,
): Promise<Side> {
  const database = await createDatabase('flagsprobe');
  const dataDir = mkdtempSync(join(tmpdir(), 'flagsprobe-'));
  const service = await ServiceProcess.start(
    { root: ROOT, mode: 'postgres', databaseUrl: database.url, dataDir, nodeArgs, env },
    180_000,
  );
  const backlog = new Client({ connectionString: database.url });
  await backlog.connect();
  return {
    name,
    service,
    pid: service.pid,
    keys: (await admin.partners(service.url, `flags${name}`, wallets)).map((partner) => partner.key),
    pendingSettlement: async () => Number((await backlog.query<{ n: string }>(SERVICE_DUE_WORK_SQL)).rows[0].n),
    close: async () => {
      await backlog.end();
      await service.stop();
      rmSync(dataDir, { recursive: true, force: true });
      await database.drop();
    },
  };
}

async function main(): Promise<void> {
  const [connections, pairs, seconds, wallets] = [64, 6, 8, 100].map((fallback, index) =>
    Number(process.argv[index + 2] ?? fallback),
  );
  const bArgs = (process.env.FLAGS_PROBE_B_ARGS ?? '').split(' ').filter(Boolean);
  const bEnv = Object.fromEntries(
    (process.env.FLAGS_PROBE_B_ENV ?? '')
      .split(' ')
      .filter(Boolean)
      .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
  );
  if (bArgs.length === 0 && Object.keys(bEnv).length === 0)
    throw new Error('FLAGS_PROBE_B_ARGS or FLAGS_PROBE_B_ENV says what B runs with');
  const window: ProbeWindow = { connections, seconds, openRate: Number(process.env.FLAGS_PROBE_OPEN_RATE ?? 0) };
  const fillSeconds = Number(process.env.FLAGS_PROBE_FILL_SECONDS ?? 20);
  const sides = [await startSide('A', [], {}, wallets), await startSide('B', bArgs, bEnv, wallets)];
  try {
    for (const side of sides)
      await topupLoad({ url: side.service.url, connections: 64, durationSeconds: fillSeconds }, side.keys);
    const ratios = { rps: [] as number[], p50: [] as number[], p99: [] as number[], cpu: [] as number[] };
    for (let pair = 0; pair < pairs; pair++) {
      const windows: Partial<Record<Side['name'], Window>> = {};
      for (const side of pair % 2 === 0 ? sides : [...sides].reverse()) {
        for (const other of sides) await settled(other);
        const { result, cpu } = await withCpuShare(
          side.pid,
          () => probeWindowLoad(side.service.url, side.keys, window),
          (r) => r.ok,
        );
        windows[side.name] = {
          rps: result.rps,
          p50: result.p50_ms,
          p99: result.p99_ms,
          serviceMs: cpu?.service_ms ?? NaN,
        };
        console.log(
          `pair ${pair + 1} ${side.name} ${String(result.rps).padStart(8)} topups/s, p50 ${result.p50_ms} ms, p99 ${result.p99_ms} ms; ` +
            `CPU ms per topup: service ${cpu?.service_ms}, PostgreSQL ${cpu?.postgres_ms}, others ${cpu?.others_busy}`,
        );
      }
      const [a, b] = [windows.A as Window, windows.B as Window];
      ratios.rps.push(b.rps / a.rps);
      ratios.p50.push(b.p50 / a.p50);
      ratios.p99.push(b.p99 / a.p99);
      ratios.cpu.push(b.serviceMs / a.serviceMs);
    }
    console.log(
      `B (${[...bArgs, ...Object.entries(bEnv).map(([name, value]) => `${name}=${value}`)].join(' ')}) / A, ${describeProbeWindow(window)}:`,
    );
    console.log(`  topups/s ${listedRatios(ratios.rps)}`);
    console.log(`  p50 ${listedRatios(ratios.p50)}; p99 ${listedRatios(ratios.p99)}`);
    console.log(`  service CPU per topup ${listedRatios(ratios.cpu)}`);
    console.log(`  RSS MB: A ${sides[0].service.rssMb()}, B ${sides[1].service.rssMb()}`);
  } finally {
    for (const side of sides) await side.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
