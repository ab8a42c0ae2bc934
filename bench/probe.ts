import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from 'pg';
import { admin } from './lib/admin';
import { nextIdempotencyKey } from './lib/load';
import { ServiceProcess } from './lib/service';

async function main() {
  const mode = (process.argv[2] ?? 'postgres') as 'postgres' | 'embedded';
  let url: string | null = null;
  if (mode === 'postgres') {
    const c = new Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/postgres' });
    await c.connect();
    const name = `probe_${Date.now()}`;
    await c.query(`CREATE DATABASE ${name}`);
    await c.end();
    url = `postgres://postgres@127.0.0.1:5432/${name}`;
  }
  const s = await ServiceProcess.start({ root: resolve(__dirname, '..'), mode, databaseUrl: url, dataDir: mkdtempSync(join(tmpdir(), 'probe-')) }, 180000);
  const p = await admin.partner(s.url, 'probe');
  require('fs').writeFileSync(process.env.PG_TRACE_FILE + '.req', '');
  await new Promise((r) => setTimeout(r, 300));
  const times: number[] = [];
  for (let i = 0; i < 30; i++) {
    const t = performance.now();
    const a = await admin.topup(s.url, p.key, nextIdempotencyKey());
    times.push(Math.round((performance.now() - t) * 10) / 10);
    if (a.status !== 200) console.log(a.status, a.text);
  }
  console.log('topup ms', times.join(' '));
  await new Promise((r) => setTimeout(r, 1000));
  require('fs').writeFileSync(process.env.PG_TRACE_FILE + '.req', '');
  await new Promise((r) => setTimeout(r, 300));
  const bt: number[] = [];
  for (let i = 0; i < 20; i++) { const t = performance.now(); await admin.balance(s.url, p.key); bt.push(Math.round((performance.now() - t) * 10) / 10); }
  console.log('balance ms', bt.join(' '));
  await s.stop();
}
main().catch((e) => { console.error(e); process.exit(1); });
