import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from 'pg';
import { admin } from './lib/admin';
import { nextIdempotencyKey, topupLoad } from './lib/load';
import { ServiceProcess } from './lib/service';

const dump = async () => {
  if (!process.env.PG_TRACE_FILE) return;
  writeFileSync(process.env.PG_TRACE_FILE + '.req', '');
  await new Promise((r) => setTimeout(r, 400));
};

async function main() {
  const mode = (process.argv[2] ?? 'postgres') as 'postgres' | 'embedded';
  const connections = Number(process.argv[3] ?? 16);
  const wallets = Number(process.argv[4] ?? 10);
  const seconds = Number(process.argv[5] ?? 5);
  let url: string | null = null;
  if (mode === 'postgres') {
    const c = new Client({ connectionString: (process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres') });
    await c.connect();
    const name = `probe_${Date.now()}`;
    await c.query(`CREATE DATABASE ${name}`);
    await c.end();
    url = (process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres').replace(/\/postgres$/, '/' + name);
  }
  const s = await ServiceProcess.start({ root: resolve(__dirname, '..'), mode, databaseUrl: url, dataDir: mkdtempSync(join(tmpdir(), 'probe-')) }, 180000);
  const partners = await admin.partners(s.url, 'probe', wallets);
  const keys = partners.map((p) => p.key);
  const times: number[] = [];
  for (let i = 0; i < 20; i++) {
    const t = performance.now();
    const a = await admin.topup(s.url, keys[0], nextIdempotencyKey());
    times.push(Math.round((performance.now() - t) * 10) / 10);
    if (a.status !== 200) console.log(a.status, a.text);
  }
  console.log('sequential topup ms', times.join(' '));
  await topupLoad({ url: s.url, connections, durationSeconds: 2 }, keys);
  await dump();
  const r = await topupLoad({ url: s.url, connections, durationSeconds: seconds }, keys);
  await dump();
  console.log(`load c=${connections} wallets=${wallets}: ${r.rps} rps p50 ${r.p50_ms} p99 ${r.p99_ms} ok ${r.ok} statuses ${JSON.stringify(r.statuses)}`);
  await s.stop();
  if (url) { const c = new Client({ connectionString: (process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres') }); await c.connect(); await c.query(`DROP DATABASE ${new URL(url).pathname.slice(1)} WITH (FORCE)`); await c.end(); }
}
main().catch((e) => { console.error(e); process.exit(1); });
