import { ChildProcess, spawn } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { Client } from 'pg';
import { BENCH_KEY_SECRET } from './service';
import { freePort, log, sleep } from './util';

/** The peer's settlement work due and not done (one row `n`). */
export const PEER_DUE_WORK_SQL = `SELECT count(*)::text AS n FROM crud_outbox WHERE due_at <= now()`;

/** What the peer sent to PostgreSQL so far (its own count), and the orders it settled. */
export interface PeerCounters {
  statements: number;
  round_trips: number;
  settled: number;
}

/** The CRUD peer (bench/peer/server.ts) as its own process on loopback. */
export class PeerServer {
  private exited = false;
  private stderr = '';

  private constructor(
    private readonly child: ChildProcess,
    readonly url: string,
  ) {
    child.on('exit', () => {
      this.exited = true;
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      this.stderr = (this.stderr + chunk.toString()).slice(-4000);
    });
    child.stdout?.resume();
  }

  /** Starts the peer on `databaseUrl` (it creates its crud_ tables if they are missing). */
  static async start(root: string, databaseUrl: string): Promise<PeerServer> {
    const port = await freePort();
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PORT: String(port),
      API_KEY_SECRET: BENCH_KEY_SECRET,
      DATABASE_URL: databaseUrl,
    };
    const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'bench', 'peer', 'server.ts')], {
      cwd: root,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const server = new PeerServer(child, `http://127.0.0.1:${port}`);
    const started = Date.now();
    for (;;) {
      if (server.exited) throw new Error(`the CRUD peer exited during start:\n${server.stderr}`);
      try {
        if ((await fetch(`${server.url}/health`)).ok) break;
      } catch {
        // not yet
      }
      if (Date.now() - started > 60_000) {
        await server.stop();
        throw new Error(`the CRUD peer did not start:\n${server.stderr}`);
      }
      await sleep(100);
    }
    log(`CRUD peer pid ${child.pid} ready at ${server.url}`);
    return server;
  }

  get pid(): number {
    return this.child.pid ?? -1;
  }

  get lastErrors(): string {
    return this.stderr;
  }

  async counters(): Promise<PeerCounters | null> {
    try {
      const answer = await fetch(`${this.url}/bench/counters`);
      return answer.ok ? ((await answer.json()) as PeerCounters) : null;
    } catch {
      return null;
    }
  }

  async stop(): Promise<void> {
    if (this.exited) return;
    const gone = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 15_000);
    await gone;
    clearTimeout(timer);
  }
}

export interface PeerPartner {
  partnerId: string;
  key: string;
}

/** A fresh sandbox key in the interface's format. */
const newSandboxKey = (): string => `svc_test_${randomBytes(24).toString('base64url')}`;

/**
 * Partners of the peer, written straight into its tables (the peer has no admin API): an IN
 * partner, its sandbox key stored as HMAC-SHA256 under the bench's key secret, the rate limit
 * lifted as the bench lifts the service's, and the wallet funded by one credit.
 */
export async function seedPeerPartners(
  databaseUrl: string,
  prefix: string,
  count: number,
  options: { fund?: string; rateLimit?: number; kycStatus?: string } = {},
): Promise<PeerPartner[]> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const partners: PeerPartner[] = [];
    for (let index = 0; index < count; index++) {
      const partnerId = `ptn_crud_${randomBytes(8).toString('hex')}`;
      const key = newSandboxKey();
      const fund = options.fund ?? '100000000.00';
      await client.query(
        `WITH p AS (
           INSERT INTO crud_partners (partner_id, name, corridor, kyc_status, rate_limit_per_minute)
           VALUES ($1, $2, 'IN', $3, $4) RETURNING partner_id
         ), k AS (
           INSERT INTO crud_api_keys (key_hash, key_id, partner_id, environment) SELECT $5, $6, partner_id, 'sandbox' FROM p
         ), w AS (
           INSERT INTO crud_wallets (partner_id, environment, currency, balance, updated_at)
           SELECT partner_id, 'sandbox', 'INR', $7::numeric, now() FROM p
         )
         INSERT INTO crud_wallet_credits (partner_id, environment, amount, reference) SELECT partner_id, 'sandbox', $7::numeric, $8 FROM p`,
        [
          partnerId,
          `${prefix} ${index + 1}`,
          options.kycStatus ?? 'pending',
          options.rateLimit ?? 100_000,
          createHmac('sha256', BENCH_KEY_SECRET).update(key, 'utf8').digest('hex'),
          `key_${randomBytes(8).toString('hex')}`,
          fund,
          `bench funding ${prefix} ${index + 1}`,
        ],
      );
      partners.push({ partnerId, key });
    }
    return partners;
  } finally {
    await client.end();
  }
}

/** The peer's own money check, as the service's windows end with theirs. */
export interface PeerMoneyCheck {
  wallets: number;
  /** Wallets whose balance is not their credits − debits + refunds. */
  balance_mismatches: number;
  accepted_topups: number;
  sent_topups: number;
  /** Order rows: one per debit. */
  debits: number;
  /** Distinct Idempotency-Keys among the debits, and keys bound to an order that exists. */
  distinct_keys_debited: number;
  keys_bound: number;
  /** Outbox rows still due when the check ran (settlement not finished). */
  outbox_due: number;
  settled: number;
  refunded: number;
  ok: boolean;
}

/**
 * balance = credits − debits + refunds for every wallet; one debit per Idempotency-Key, each
 * bound to its order; accepted ≤ debits ≤ sent (a request in flight when a timed run stops may be
 * debited and never answered).
 */
export async function peerMoneyCheck(
  databaseUrl: string,
  counter: { accepted: number; sent: number },
): Promise<PeerMoneyCheck> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<Record<string, string>>(
      `SELECT
         (SELECT count(*) FROM crud_wallets)::text AS wallets,
         (SELECT count(*) FROM crud_wallets w
            LEFT JOIN (SELECT partner_id, environment, sum(amount) AS total FROM crud_wallet_credits GROUP BY 1, 2) c
              USING (partner_id, environment)
            LEFT JOIN (SELECT partner_id, environment, sum(amount) AS debits,
                              coalesce(sum(amount) FILTER (WHERE refunded_at IS NOT NULL), 0) AS refunds
                         FROM crud_orders GROUP BY 1, 2) o USING (partner_id, environment)
           WHERE w.balance <> coalesce(c.total, 0) - coalesce(o.debits, 0) + coalesce(o.refunds, 0))::text AS mismatches,
         (SELECT count(*) FROM crud_orders)::text AS debits,
         (SELECT count(DISTINCT (partner_id, environment, idempotency_key)) FROM crud_orders)::text AS keys,
         (SELECT count(*) FROM crud_idempotency_keys k JOIN crud_orders o
             ON o.order_id = k.order_id AND o.partner_id = k.partner_id AND o.environment = k.environment
            AND o.idempotency_key = k.idempotency_key)::text AS bound,
         (SELECT count(*) FROM crud_outbox WHERE due_at <= now())::text AS due,
         (SELECT count(*) FROM crud_orders WHERE status <> 'PENDING')::text AS settled,
         (SELECT count(*) FROM crud_orders WHERE refunded_at IS NOT NULL)::text AS refunded`,
    );
    const row = rows[0];
    const debits = Number(row.debits);
    const keys = Number(row.keys);
    const check: PeerMoneyCheck = {
      wallets: Number(row.wallets),
      balance_mismatches: Number(row.mismatches),
      accepted_topups: counter.accepted,
      sent_topups: counter.sent,
      debits,
      distinct_keys_debited: keys,
      keys_bound: Number(row.bound),
      outbox_due: Number(row.due),
      settled: Number(row.settled),
      refunded: Number(row.refunded),
      ok: false,
    };
    check.ok =
      check.balance_mismatches === 0 &&
      keys === debits &&
      check.keys_bound === debits &&
      debits >= counter.accepted &&
      debits <= counter.sent;
    log(
      `peer money: ${check.wallets} wallets, ${check.balance_mismatches} off credits − debits + refunds; ${counter.accepted} topups answered 200, ` +
        `${debits} debits for ${keys} keys (${check.keys_bound} bound), at most ${counter.sent} sent; ${check.settled} settled: ${check.ok ? 'consistent' : 'INCONSISTENT'}`,
    );
    return check;
  } finally {
    await client.end();
  }
}
