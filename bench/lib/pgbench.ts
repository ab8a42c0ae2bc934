import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { LoadResult } from './load';
import { LatencySamples, round } from './util';

/**
 * The LIMIT baseline: what this PostgreSQL does when a client does nothing but the
 * irreducible work of a debit, one transaction per debit: append one ~300-byte jsonb
 * event to a table indexed like es_events, and take the amount off a balance row only
 * if it is covered (`WHERE balance >= amount`).
 */
export const LIMIT_SCHEMA = `
DROP TABLE IF EXISTS limit_events;
DROP TABLE IF EXISTS limit_balances;
DROP SEQUENCE IF EXISTS limit_revision;
CREATE TABLE limit_events (
  global_position bigserial PRIMARY KEY,
  transaction_id xid8 NOT NULL DEFAULT pg_current_xact_id(),
  event_id uuid NOT NULL,
  stream_id text NOT NULL,
  stream_revision bigint NOT NULL,
  event_type text NOT NULL,
  schema_version integer NOT NULL,
  data jsonb NOT NULL,
  metadata jsonb NOT NULL,
  recorded_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  CONSTRAINT limit_events_event_id_unique UNIQUE (event_id),
  CONSTRAINT limit_events_stream_revision_unique UNIQUE (stream_id, stream_revision)
);
CREATE INDEX limit_events_global_order ON limit_events (transaction_id, global_position);
CREATE INDEX limit_events_by_correlation ON limit_events ((metadata->>'correlationId'));
CREATE SEQUENCE limit_revision;
CREATE TABLE limit_balances (wallet_id integer PRIMARY KEY, balance numeric(20, 4) NOT NULL, revision bigint NOT NULL);
INSERT INTO limit_balances SELECT id, 100000000, 0 FROM generate_series(1, 100) AS id;
`;

/** About 300 bytes of event data, shaped like a WalletDebited, with per-transaction values. */
export const LIMIT_SCRIPT = `\\set wid random(1, 100)
\\set order random(1, 2000000000)
BEGIN;
INSERT INTO limit_events (event_id, stream_id, stream_revision, event_type, schema_version, data, metadata)
  VALUES (gen_random_uuid(), 'wallet-bench-' || :wid, nextval('limit_revision'), 'WalletDebited', 1,
    jsonb_build_object('orderId', 'ord_' || :order, 'amount', '10.00', 'currency', 'INR', 'balanceAfter', '99999990.00',
      'reference', NULL, 'idempotencyKey', 'bench-limit-' || :order || '-' || :client_id,
      'product', jsonb_build_object('kind', 'topup', 'operatorId', 101, 'phone', '+919876540001'),
      'placedAt', '2025-01-01T00:00:00.000Z'),
    jsonb_build_object('correlationId', 'ord_' || :order, 'partnerId', 'ptn_bench_' || :wid, 'environment', 'sandbox'));
UPDATE limit_balances SET balance = balance - 10, revision = revision + 1 WHERE wallet_id = :wid AND balance >= 10;
END;
`;

export async function prepareLimit(databaseUrl: string): Promise<void> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(LIMIT_SCHEMA);
  } finally {
    await client.end();
  }
}

export function pgbenchPath(): string | null {
  const candidates = [process.env.PGBENCH, '/usr/bin/pgbench', '/usr/lib/postgresql/15/bin/pgbench'].filter(
    (p): p is string => Boolean(p),
  );
  return candidates.find((candidate) => existsSync(candidate)) ?? null;
}

/** Runs pgbench -M prepared with the LIMIT script; latencies come from its per-transaction log. */
export async function runLimit(databaseUrl: string, connections: number, durationSeconds: number): Promise<LoadResult> {
  const binary = pgbenchPath();
  if (!binary) throw new Error('pgbench not found (set PGBENCH)');
  const work = mkdtempSync(join(tmpdir(), 'bench-pgbench-'));
  try {
    const script = join(work, 'limit.sql');
    writeFileSync(script, LIMIT_SCRIPT);
    const url = new URL(databaseUrl);
    const args = [
      '-n',
      '-M',
      'prepared',
      '-f',
      script,
      '-c',
      String(connections),
      '-j',
      String(Math.min(connections, 2)),
      '-T',
      String(Math.max(1, Math.round(durationSeconds))),
      '-l',
      '--log-prefix',
      join(work, 'log'),
      '-h',
      url.hostname,
      '-p',
      url.port || '5432',
      '-U',
      decodeURIComponent(url.username || 'postgres'),
      decodeURIComponent(url.pathname.slice(1)),
    ];
    const output = await new Promise<string>((resolve, reject) => {
      const child = spawn(binary, args, { env: { ...process.env, PGPASSWORD: decodeURIComponent(url.password) } });
      let text = '';
      child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (text += chunk.toString()));
      child.on('error', reject);
      child.on('exit', (code) => (code === 0 ? resolve(text) : reject(new Error(`pgbench exited ${code}:\n${text}`))));
    });
    const samples = new LatencySamples();
    let failed = 0;
    for (const file of readdirSync(work).filter((name) => name.startsWith('log'))) {
      for (const line of readFileSync(join(work, file), 'utf8').split('\n')) {
        if (!line) continue;
        // client_id transaction_no time script_no time_epoch time_us; time is the latency in µs, or "failed"
        const fields = line.split(' ');
        if (fields[2] === 'failed' || fields[2] === 'skipped') failed += 1;
        else samples.add(Number(fields[2]) / 1000);
      }
    }
    const tps = /tps = ([\d.]+) \(without initial connection time\)/.exec(output);
    const duration = /duration: (\d+) s/.exec(output);
    const seconds = duration ? Number(duration[1]) : durationSeconds;
    return {
      connections,
      duration_s: seconds,
      requests: samples.size + failed,
      ok: samples.size,
      rps: round(tps ? Number(tps[1]) : samples.size / seconds, 1),
      ...samples.summary(),
      non_2xx: 0,
      errors: failed,
      timeouts: 0,
      statuses: {},
      sent: samples.size + failed,
    };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
