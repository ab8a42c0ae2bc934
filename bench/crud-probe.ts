/**
 * The service and the CRUD peer (bench/peer/) in alternating closed-load windows on one fresh database, without the
 * rest of the bench: a quick look at topup_vs_crud at some connections, with each side's CPU per topup.
 *   npx tsx bench/crud-probe.ts [connections=1] [pairs=5] [seconds=4] [wallets=100]
 * (CRUD_PROBE_FILL_SECONDS=60 loads each side that long at 64 connections first; 3 s by default;
 *  CRUD_PROBE_OPEN_RATE=400 sends that many requests a second in each window instead, an open model as the bench's,
 *  and `connections` is then not used)
 * Each window starts with the other side's orders settled and its process idle, as in the bench's pairs; odd pairs
 * run the service first. The bench's figures are the ones to report; this is for trying a change.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { admin } from './lib/admin';
import { withCpuShare } from './lib/cpu-usage';
import { createDatabase, ROOT } from './lib/environment';
import { topupLoad } from './lib/load';
import { PEER_DUE_WORK_SQL, PeerServer, seedPeerPartners } from './lib/peer';
import { describeProbeWindow, listedRatios, probeWindowLoad, ProbeWindow } from './lib/probe-window';
import { SERVICE_DUE_WORK_SQL, ServiceProcess } from './lib/service';
import { settled } from './lib/topup-cost';

interface Side {
  name: 'service' | 'peer';
  url: string;
  pid: number;
  keys: readonly string[];
  /** Settlement work due and not done. */
  pendingSettlement: () => Promise<number>;
}

async function main(): Promise<void> {
  const [connections, pairs, seconds, wallets] = [1, 5, 4, 100].map((fallback, index) =>
    Number(process.argv[index + 2] ?? fallback),
  );
  const scratch = await createDatabase('crudprobe');
  const dataDir = mkdtempSync(join(tmpdir(), 'crudprobe-'));
  const service = await ServiceProcess.start(
    { root: ROOT, mode: 'postgres', databaseUrl: scratch.url, dataDir },
    180_000,
  );
  const peer = await PeerServer.start(ROOT, scratch.url);
  const backlog = new Client({ connectionString: scratch.url });
  await backlog.connect();
  const count = async (sql: string): Promise<number> => Number((await backlog.query<{ n: string }>(sql)).rows[0].n);
  try {
    const sides: Side[] = [
      {
        name: 'service',
        url: service.url,
        pid: service.pid,
        keys: (await admin.partners(service.url, 'crudprobe', wallets)).map((partner) => partner.key),
        pendingSettlement: () => count(SERVICE_DUE_WORK_SQL),
      },
      {
        name: 'peer',
        url: peer.url,
        pid: peer.pid,
        keys: (await seedPeerPartners(scratch.url, 'crudprobe', wallets)).map((partner) => partner.key),
        pendingSettlement: () => count(PEER_DUE_WORK_SQL),
      },
    ];
    // CRUD_PROBE_FILL_SECONDS: how long each side is loaded at 64 connections first (its JIT warm, its tables grown).
    const fillSeconds = Number(process.env.CRUD_PROBE_FILL_SECONDS ?? 3);
    for (const side of sides)
      await topupLoad({ url: side.url, connections: 64, durationSeconds: fillSeconds }, side.keys);
    const window: ProbeWindow = { connections, seconds, openRate: Number(process.env.CRUD_PROBE_OPEN_RATE ?? 0) };
    const ratios: number[] = [];
    const p50Ratios: number[] = [];
    const p99Ratios: number[] = [];
    for (let pair = 0; pair < pairs; pair++) {
      const rps: Record<string, number> = {};
      const latency: Record<string, { p50: number; p99: number }> = {};
      for (const side of pair % 2 === 0 ? sides : [...sides].reverse()) {
        for (const other of sides) await settled(other);
        if (process.env.CRUD_PROBE_ANNOUNCE) console.log(`window ${pair + 1} ${side.name} pid ${side.pid} starts`);
        const { result, cpu } = await withCpuShare(
          side.pid,
          () => probeWindowLoad(side.url, side.keys, window),
          (r) => r.ok,
        );
        rps[side.name] = result.rps;
        latency[side.name] = { p50: result.p50_ms, p99: result.p99_ms };
        console.log(
          `pair ${pair + 1} ${side.name.padEnd(7)} ${String(result.rps).padStart(8)} topups/s, p50 ${result.p50_ms} ms, p99 ${result.p99_ms} ms; ` +
            `CPU ms per topup: server ${cpu?.service_ms}, PostgreSQL ${cpu?.postgres_ms}, load ${cpu?.client_ms}, others ${cpu?.others_busy}`,
        );
      }
      ratios.push(rps.service / rps.peer);
      p50Ratios.push(latency.service.p50 / latency.peer.p50);
      p99Ratios.push(latency.service.p99 / latency.peer.p99);
    }
    console.log(`service/peer p50 ${listedRatios(p50Ratios)}, p99 ${listedRatios(p99Ratios)}`);
    console.log(`service/peer at ${describeProbeWindow(window)}: ${listedRatios(ratios)}`);
  } finally {
    await backlog.end();
    await peer.stop();
    await service.stop();
    rmSync(dataDir, { recursive: true, force: true });
    await scratch.drop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
