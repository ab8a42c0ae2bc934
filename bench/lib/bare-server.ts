/**
 * The framework baseline: a bare Fastify server (no Nest, no CQRS buses, no guards or
 * pipes) doing the same authenticated balance read as GET /v1/partner/balance, with the
 * same SQL against the same database: the key with its partner and settings (IP allowlist,
 * rate limit) in one query, the rate-limit hit, then the balance. Started by the bench as its own process:
 *   node --import tsx bench/lib/bare-server.ts   (env: PORT, API_KEY_SECRET, DATABASE_URL)
 */
import Fastify from 'fastify';
import { createHmac } from 'node:crypto';
import { PostgresDatabase } from '../../src/infrastructure/sql/postgres-database';
import { SqlDatabase } from '../../src/infrastructure/sql/sql-database';

const KEY_PATTERN = /^svc_(live|test)_[A-Za-z0-9_-]{32}$/;
const CURRENCIES: Record<string, string> = { IN: 'INR', BD: 'BDT', SG: 'SGD' };

async function main(): Promise<void> {
  const secret = process.env.API_KEY_SECRET ?? '';
  const db: SqlDatabase = new PostgresDatabase({
    connectionString: process.env.DATABASE_URL ?? '',
    maxConnections: 20,
    applicationName: 'bench-bare',
  });
  const app = Fastify({ logger: false });

  const refuse = (status: number, error: string, detail: string) => ({ status, body: { error, detail } });

  app.get('/v1/partner/balance', async (request, reply) => {
    const match = /^Bearer ([^\s]+)$/i.exec(request.headers.authorization ?? '');
    const key = match?.[1];
    const env = key ? KEY_PATTERN.exec(key)?.[1] : undefined;
    const environment = env === 'live' ? 'live' : env === 'test' ? 'sandbox' : null;
    let failure: { status: number; body: Record<string, string> };
    if (!key || !environment) failure = refuse(401, 'invalid_api_key', 'missing or malformed API key');
    else {
      const hash = createHmac('sha256', secret).update(key, 'utf8').digest('hex');
      // The service's admission read: key, partner and settings in one query.
      const rows = await db.query<{
        key_id: string;
        environment: string;
        active: boolean;
        partner_found: string | null;
        corridor: string | null;
        created_at: Date | string | null;
        settings: { ipAllowlist?: string[]; rateLimitPerMinute?: number } | null;
      }>(
        `SELECT k.key_id, k.partner_id, k.environment, k.active,
                p.partner_id AS partner_found, p.name, p.corridor, p.kyc_status, p.created_at, s.settings
           FROM rm_api_keys k
           LEFT JOIN rm_partners p ON p.partner_id = k.partner_id
           LEFT JOIN rm_partner_settings s ON s.partner_id = k.partner_id AND s.environment = k.environment
          WHERE k.key_hash = $1`,
        [hash],
      );
      const row = rows[0];
      if (!row || !row.active || row.environment !== environment || !row.partner_found) {
        failure = refuse(401, 'invalid_api_key', 'the API key is not valid or has been revoked');
      } else {
        const partner = {
          partner_id: row.partner_found,
          corridor: row.corridor ?? 'IN',
          created_at: row.created_at ?? new Date(0),
        };
        const settings = row.settings ?? {};
        const allowlist = settings.ipAllowlist ?? [];
        if (allowlist.length && !allowlist.includes(request.ip))
          failure = refuse(403, 'ip_not_allowed', 'not in the allowlist');
        else {
          const limit = settings.rateLimitPerMinute ?? 60;
          const windowStart = new Date(Math.floor(Date.now() / 60_000) * 60_000);
          const hits = await db.query<{ hits: number }>(
            `INSERT INTO rate_limit_windows (bucket, window_start, hits) VALUES ($1, $2, 1)
             ON CONFLICT (bucket, window_start) DO UPDATE SET hits = rate_limit_windows.hits + EXCLUDED.hits RETURNING hits`,
            [`key:${row.key_id}`, windowStart.toISOString()],
          );
          const used = hits[0].hits;
          void reply.header('RateLimit-Limit', String(limit));
          void reply.header('RateLimit-Remaining', String(Math.max(limit - used, 0)));
          if (used > limit) failure = refuse(429, 'rate_limit_exceeded', 'too many requests');
          else {
            // The balance after the wallet's newest event, as the service reads it.
            const newest = await db.query<{ available: string; updated_at: string }>(
              `SELECT data->>'balanceAfter' AS available, metadata->>'occurredAt' AS updated_at
                 FROM es_events WHERE stream_id = $1 ORDER BY stream_revision DESC LIMIT 1`,
              [`wallet-${partner.partner_id}-${environment}`],
            );
            const balance = newest[0];
            return {
              available: balance ? twoDecimals(balance.available) : '0.00',
              currency: CURRENCIES[partner.corridor] ?? 'INR',
              corridor: partner.corridor,
              updated_at: new Date(balance?.updated_at ?? partner.created_at).toISOString(),
              environment,
            };
          }
        }
      }
    }
    void reply.code(failure.status);
    return failure.body;
  });

  app.get('/health', async () => ({ status: 'ok' }));

  // The HTTP floor (bench/http-floor.ts): a topup request read and a topup-sized answer sent, with
  // no authentication, no validation and no database; what loopback HTTP alone costs per request.
  app.post('/floor/topup', async (request) => {
    const body = request.body as { phone?: string; amount?: number; reference?: string };
    return {
      transaction_id: 'txn_00000000-0000-4000-8000-000000000000',
      status: 'PENDING',
      phone: body.phone,
      operator_id: 101,
      amount: body.amount,
      currency: 'INR',
      reference: body.reference ?? null,
      balance_after: '99990.00',
      created_at: new Date().toISOString(),
    };
  });
  const port = Number(process.env.PORT ?? 0);
  await app.listen({ port, host: '127.0.0.1' });
  const stop = async () => {
    await app.close();
    await db.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop());
  process.on('SIGINT', () => void stop());
}

function twoDecimals(text: string): string {
  const [whole, fraction = ''] = text.split('.');
  return `${whole}.${(fraction + '00').slice(0, 2)}`;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
