/**
 * What loopback HTTP alone costs per request, beside what a whole LIMIT transaction costs:
 * the bare Fastify server (bench/lib/bare-server.ts) answers the bench's topup request with a
 * topup-sized body and does nothing else (no authentication, validation or database), under the
 * bench's load generator at the same connections, in windows alternating with LIMIT (pgbench).
 * The CPU per request of the server and of the load generator is a floor no topup over HTTP
 * can go below; LIMIT's whole CPU per transaction is what topup_vs_limit ≥ 1.0 must fit in.
 *   npx tsx bench/http-floor.ts [connections=64] [pairs=3] [seconds=6]
 */
import { withCpuShare } from './lib/cpu-usage';
import { BareServer } from './lib/bare';
import { ROOT, createDatabase } from './lib/environment';
import { median } from './lib/interleaved-pairs';
import { topupLoad } from './lib/load';
import { prepareLimit, runLimit } from './lib/pgbench';

interface Window {
  rps: number;
  p50_ms: number;
  server_ms: number | null;
  postgres_ms: number;
  client_ms: number;
  others_busy: number;
}

async function main(): Promise<void> {
  const connections = Number(process.argv[2] ?? 64);
  const pairs = Number(process.argv[3] ?? 3);
  const seconds = Number(process.argv[4] ?? 6);
  const database = await createDatabase();
  await prepareLimit(database.url);
  const server = await BareServer.start(ROOT, { databaseUrl: database.url });
  const floor: Window[] = [];
  const limit: Window[] = [];
  try {
    const load = { url: server.url, connections, durationSeconds: seconds };
    await topupLoad({ ...load, durationSeconds: 2 }, ['-'], '/floor/topup');
    for (let pair = 0; pair < pairs; pair++) {
      const http = async () => {
        const { result, cpu } = await withCpuShare(
          server.pid,
          () => topupLoad(load, ['-'], '/floor/topup'),
          (r) => r.ok,
        );
        floor.push(windowOf(result, cpu));
      };
      const sql = async () => {
        const { result, cpu } = await withCpuShare(
          null,
          () => runLimit(database.url, connections, seconds),
          (r) => r.ok,
        );
        limit.push(windowOf(result, cpu));
      };
      if (pair % 2 === 0) {
        await http();
        await sql();
      } else {
        await sql();
        await http();
      }
    }
  } finally {
    await server.stop();
    await database.drop();
  }
  const show = (name: string, windows: Window[], total: (w: Window) => number) =>
    console.log(
      `${name.padEnd(42)} ${String(Math.round(median(windows.map((w) => w.rps)))).padStart(7)}/s, p50 ${median(windows.map((w) => w.p50_ms)).toFixed(2)} ms  ` +
        `CPU ms per request: ${median(windows.map(total)).toFixed(3)} ` +
        `(server ${median(windows.map((w) => w.server_ms ?? 0)).toFixed(3)}, PostgreSQL ${median(windows.map((w) => w.postgres_ms)).toFixed(3)}, client ${median(windows.map((w) => w.client_ms)).toFixed(3)}); ` +
        `others ${Math.max(...windows.map((w) => w.others_busy)) * 100} % at most`,
    );
  console.log(`${connections} connections, ${pairs} pairs of ${seconds} s, medians:`);
  show('HTTP floor: bare Fastify, no work', floor, (w) => (w.server_ms ?? 0) + w.client_ms);
  show('LIMIT: pgbench, 1 INSERT + 1 UPDATE per tx', limit, (w) => w.postgres_ms + w.client_ms);
}

function windowOf(
  result: { rps: number; p50_ms: number },
  cpu: { service_ms: number | null; postgres_ms: number; client_ms: number; others_busy: number } | null,
): Window {
  return {
    rps: result.rps,
    p50_ms: result.p50_ms,
    server_ms: cpu?.service_ms ?? null,
    postgres_ms: cpu?.postgres_ms ?? 0,
    client_ms: cpu?.client_ms ?? 0,
    others_busy: cpu?.others_busy ?? 0,
  };
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
