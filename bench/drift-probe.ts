/**
 * Whether a topup costs more the longer the service runs: starts the compiled service on a fresh database, loads
 * it at 64 connections for a while (as the bench's scenarios do), then measures windows at `connections` one after
 * another, each with its rate and the CPU per topup of the service and of PostgreSQL.
 *   npx tsx bench/drift-probe.ts [connections=1] [windows=8] [seconds=6] [warm-up seconds at 64=60] [wallets=100]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { admin } from './lib/admin';
import { withCpuShare } from './lib/cpu-usage';
import { topupLoad } from './lib/load';
import { createDatabase } from './lib/environment';
import { ServiceProcess } from './lib/service';

async function main(): Promise<void> {
  const [connections, windows, seconds, warmUp, wallets] = [1, 8, 6, 60, 100].map((fallback, index) =>
    Number(process.argv[2 + index] ?? fallback),
  );
  const database = await createDatabase('drift');
  const dataDir = mkdtempSync(join(tmpdir(), 'drift-'));
  const service = await ServiceProcess.start(
    { root: resolve(__dirname, '..'), mode: 'postgres', databaseUrl: database.url, dataDir },
    180_000,
  );
  try {
    const keys = (await admin.partners(service.url, 'drift', wallets)).map((partner) => partner.key);
    if (warmUp > 0) {
      const loaded = await topupLoad({ url: service.url, connections: 64, durationSeconds: warmUp }, keys);
      console.log(`warm-up at 64 connections: ${loaded.ok} topups in ${warmUp} s`);
    }
    for (let window = 1; window <= windows; window++) {
      const { result, cpu } = await withCpuShare(
        service.pid,
        () => topupLoad({ url: service.url, connections, durationSeconds: seconds }, keys),
        (r) => r.ok,
      );
      console.log(
        `window ${window}: ${result.rps} topups/s at ${connections}, p50 ${result.p50_ms} ms; CPU ms per topup: service ${cpu?.service_ms}, PostgreSQL ${cpu?.postgres_ms}; others ${Math.round((cpu?.others_busy ?? 0) * 100)} %`,
      );
    }
  } finally {
    await service.stop();
    rmSync(dataDir, { recursive: true, force: true });
    await database.drop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
