/**
 * The CRUD peer: the service's topup written plainly, without event sourcing, for the bench to
 * measure beside the service (docs/performance.md, "The CRUD peer"). Fastify and pg; the key is
 * checked in the database by its HMAC and counted against its rate limit in the same statement;
 * a topup is one statement that debits the wallet if it covers the amount, inserts the order, the
 * Idempotency-Key with its answer and an outbox row, committed durably; a worker settles the
 * outbox in batches. A baseline, not a product. Started by the bench as its own process:
 *   node --import tsx bench/peer/server.ts   (env: PORT, API_KEY_SECRET, DATABASE_URL)
 */
import Fastify, { FastifyReply, FastifyRequest } from 'fastify';
import { createHmac, randomBytes } from 'node:crypto';
import { DatabaseError } from 'pg';
import { peerDb, sqlCounters } from './counted-pool';
import { PEER_SCHEMA } from './schema';
import { SettlementWorker } from './settlement-worker';
import {
  CURRENCY_OF,
  CheckedTopup,
  Corridor,
  IDEMPOTENCY_KEY,
  Refusal,
  TopupBody,
  checkedBody,
  centsOf,
  checkedTopup,
  decimalOf,
  refuse,
  requestHash,
} from './topup-rules';

const KEY_PATTERN = /^svc_(live|test)_[A-Za-z0-9_-]{32}$/;
const IDEMPOTENCY_WINDOW = '24 hours';
/** A placeholder no request can contain (control characters are refused), as JSON text and as a value. */
const BALANCE_SLOT_VALUE = '\u0000balance_after';
const BALANCE_SLOT = JSON.stringify(BALANCE_SLOT_VALUE).slice(1, -1);

interface Caller {
  partnerId: string;
  environment: 'live' | 'sandbox';
  corridor: Corridor;
  createdAt: Date;
}

/** The admitted caller of each request (set by the admission hook). */
const callers = new WeakMap<FastifyRequest, Caller>();

interface AdmissionRow {
  key_id: string;
  partner_id: string;
  environment: string;
  active: boolean;
  corridor: Corridor;
  kyc_status: string;
  rate_limit_per_minute: number;
  ip_allowlist: string[];
  created_at: Date;
  hits: number | null;
}

interface KeyRow {
  request_hash: string;
  response_body: string;
  expired: boolean;
}

async function main(): Promise<void> {
  const secret = process.env.API_KEY_SECRET ?? '';
  const url = process.env.DATABASE_URL ?? '';
  // The service's split of its 20 connections: 12 that commit durably, 8 that do not wait for the disk.
  const money = peerDb(url, 12, 'crud-peer');
  const counts = peerDb(url, 8, 'crud-peer-counts', true);
  await money.query({ text: PEER_SCHEMA });
  const worker = new SettlementWorker(money);
  worker.start();
  const app = Fastify({ logger: false, bodyLimit: 16 * 1024 });

  app.setErrorHandler((error: Error & { statusCode?: number }, _request, reply) => {
    if (error instanceof Refusal) {
      void reply.code(error.status).headers(error.headers);
      return { error: error.code, detail: error.detail };
    }
    if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500) {
      void reply.code(error.statusCode);
      return { error: 'validation_failed', detail: bodyProblem(error) };
    }
    process.stderr.write(`peer: ${error.stack ?? error.message}\n`);
    void reply.code(500);
    return { error: 'internal_error', detail: null };
  });

  /** The key by its HMAC, with its partner and settings, and the request counted, in one statement. */
  const admit = async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const key = /^Bearer ([^\s]+)$/i.exec(request.headers.authorization ?? '')?.[1];
    const prefix = key ? KEY_PATTERN.exec(key)?.[1] : undefined;
    if (!key || !prefix) throw refuse('invalid_api_key', 'missing or malformed API key');
    const environment = prefix === 'live' ? 'live' : 'sandbox';
    const now = Date.now();
    const windowStart = Math.floor(now / 60_000) * 60_000;
    const rows = await counts.query<AdmissionRow>({
      name: 'crud_admit',
      text: `WITH k AS (
               SELECT k.key_id, k.partner_id, k.environment, k.active, p.corridor, p.kyc_status,
                      p.rate_limit_per_minute, p.ip_allowlist, p.created_at
                 FROM crud_api_keys k JOIN crud_partners p ON p.partner_id = k.partner_id
                WHERE k.key_hash = $1
             ), counted AS (
               INSERT INTO crud_rate_limit_windows (key_id, window_start, hits)
               SELECT key_id, $2, 1 FROM k
                WHERE active AND environment = $3 AND (environment <> 'live' OR kyc_status = 'approved')
                  AND cardinality(ip_allowlist) = 0
               ON CONFLICT (key_id, window_start) DO UPDATE SET hits = crud_rate_limit_windows.hits + 1
               RETURNING hits
             )
             SELECT k.*, (SELECT hits FROM counted) AS hits FROM k`,
      values: [createHmac('sha256', secret).update(key, 'utf8').digest('hex'), new Date(windowStart), environment],
    });
    const row = rows[0];
    if (!row || !row.active || row.environment !== environment)
      throw refuse('invalid_api_key', 'the API key is not valid or has been revoked');
    if (environment === 'live' && row.kyc_status !== 'approved')
      throw refuse('kyc_required', 'live keys work only while the partner KYC is approved');
    let hits = row.hits;
    if (row.ip_allowlist.length > 0) {
      if (!row.ip_allowlist.includes(request.ip))
        throw refuse('ip_not_allowed', `requests from ${request.ip} are not in this key's IP allowlist`);
      const counted = await counts.query<{ hits: number }>({
        name: 'crud_count',
        text: `INSERT INTO crud_rate_limit_windows (key_id, window_start, hits) VALUES ($1, $2, 1)
               ON CONFLICT (key_id, window_start) DO UPDATE SET hits = crud_rate_limit_windows.hits + 1 RETURNING hits`,
        values: [row.key_id, new Date(windowStart)],
      });
      hits = counted[0].hits;
    }
    const limit = row.rate_limit_per_minute;
    const reset = Math.max(Math.ceil((windowStart + 60_000 - now) / 1000), 1);
    const headers: Record<string, string> = {
      'RateLimit-Limit': String(limit),
      'RateLimit-Remaining': String(Math.max(limit - (hits ?? 0), 0)),
      'RateLimit-Reset': String(reset),
      'RateLimit-Policy': `${limit};w=60`,
    };
    if ((hits ?? 0) > limit)
      throw refuse('rate_limit_exceeded', `at most ${limit} requests per minute for this key; retry in ${reset} s`, {
        ...headers,
        'Retry-After': String(reset),
      });
    void reply.headers(headers);
    callers.set(request, { partnerId: row.partner_id, environment, corridor: row.corridor, createdAt: row.created_at });
  };

  const callerOf = (request: FastifyRequest): Caller => {
    const caller = callers.get(request);
    if (!caller) throw new Error('no caller: the admission hook did not run');
    return caller;
  };

  /** The Idempotency-Key's stored answer, if the key is bound (and not past its window). */
  const boundKey = async (caller: Caller, key: string): Promise<KeyRow | null> => {
    const rows = await money.query<KeyRow>({
      name: 'crud_key',
      text: `SELECT request_hash, response_body, expires_at <= now() AS expired FROM crud_idempotency_keys
              WHERE partner_id = $1 AND environment = $2 AND idempotency_key = $3`,
      values: [caller.partnerId, caller.environment, key],
    });
    return rows[0] ?? null;
  };

  const conflict = (): Refusal =>
    refuse('idempotency_conflict', 'this Idempotency-Key was already used with a different request body');

  /** A refused request whose key already answered the same request gets that answer; another body gets 409. */
  const replayOr = async (caller: Caller, key: string, hash: string, reply: FastifyReply, refusal: unknown) => {
    const bound = await boundKey(caller, key);
    if (!bound || bound.expired) throw refusal;
    if (bound.request_hash !== hash) throw conflict();
    return replay(reply, bound.response_body);
  };

  const replay = (reply: FastifyReply, body: string): string => {
    void reply.header('content-type', 'application/json; charset=utf-8').header('Idempotent-Replay', 'true');
    return body;
  };

  const place = async (caller: Caller, key: string, hash: string, topup: CheckedTopup): Promise<string | null> => {
    const createdAt = new Date();
    const orderId = `ord_${randomBytes(12).toString('hex')}`;
    const rows = await money.query<{ response_body: string }>({
      name: 'crud_topup',
      text: `WITH debited AS (
               UPDATE crud_wallets SET balance = balance - $3::numeric, updated_at = $10
                WHERE partner_id = $1 AND environment = $2 AND balance >= $3::numeric
               RETURNING balance
             ), placed AS (
               INSERT INTO crud_orders (order_id, partner_id, environment, idempotency_key, operator_id, phone,
                                        amount, currency, balance_after, reference, status, created_at)
               SELECT $4, $1, $2, $5, $6, $7, $3::numeric, $8, balance, $9, 'PENDING', $10 FROM debited
               RETURNING order_id, balance_after
             ), answered AS (
               INSERT INTO crud_idempotency_keys (partner_id, environment, idempotency_key, request_hash, order_id,
                                                  status_code, response_body, created_at, expires_at)
               SELECT $1, $2, $5, $11, order_id, 200, replace($12, '"${BALANCE_SLOT}"', to_json(balance_after::text)::text),
                      $10, $10 + interval '${IDEMPOTENCY_WINDOW}'
                 FROM placed
               RETURNING response_body
             ), queued AS (
               INSERT INTO crud_outbox (order_id, step, due_at) SELECT order_id, 'submit', $10 FROM placed
             )
             SELECT response_body FROM answered`,
      values: [
        caller.partnerId,
        caller.environment,
        decimalOf(topup.minor),
        orderId,
        key,
        topup.operatorId,
        topup.phone,
        topup.currency,
        topup.reference,
        createdAt,
        hash,
        // The answer as it will be sent, the balance left for the statement that decides it to fill in.
        JSON.stringify({
          order_id: orderId,
          status: 'PENDING',
          operator_id: topup.operatorId,
          phone: topup.phone,
          amount_local: decimalOf(topup.minor, 4),
          currency: topup.currency,
          balance_after: BALANCE_SLOT_VALUE,
          reference: topup.reference,
          created_at: createdAt.toISOString(),
        }),
      ],
    });
    return rows[0]?.response_body ?? null;
  };

  const insufficient = async (caller: Caller, topup: CheckedTopup): Promise<Refusal> => {
    const rows = await money.query<{ balance: string }>({
      name: 'crud_balance_of',
      text: `SELECT balance::text AS balance FROM crud_wallets WHERE partner_id = $1 AND environment = $2`,
      values: [caller.partnerId, caller.environment],
    });
    return refuse(
      'insufficient_balance',
      `available ${rows[0]?.balance ?? '0.00'} ${topup.currency} is below the required ${decimalOf(topup.minor)}`,
    );
  };

  const isKeyTaken = (error: unknown): boolean =>
    error instanceof DatabaseError && error.code === '23505' && error.constraint === 'crud_idempotency_keys_pkey';

  app.addHook('preHandler', async (request, reply) => {
    if (request.url.startsWith('/v1/partner/')) await admit(request, reply);
  });

  app.post('/v1/partner/topup', async (request, reply) => {
    const caller = callerOf(request);
    const header = request.headers['idempotency-key'];
    if (header === undefined || header === '')
      throw refuse('idempotency_key_required', 'the Idempotency-Key header is required');
    if (typeof header !== 'string' || !IDEMPOTENCY_KEY.test(header))
      throw refuse('validation_failed', 'Idempotency-Key: 8 to 255 visible ASCII characters');
    const { validate_only: validateOnly, ...body } = checkedBody(request.body);
    const hash = requestHash(body);
    if (validateOnly === true) return dryRun(caller, header, hash, body);
    let topup: CheckedTopup;
    try {
      topup = checkedTopup(body, caller.corridor);
    } catch (refusal) {
      return replayOr(caller, header, hash, reply, refusal);
    }
    for (let attempt = 1; ; attempt++) {
      try {
        const answer = await place(caller, header, hash, topup);
        if (answer === null) return await replayOr(caller, header, hash, reply, await insufficient(caller, topup));
        worker.kick();
        void reply.header('content-type', 'application/json; charset=utf-8');
        return answer;
      } catch (error) {
        if (!isKeyTaken(error)) throw error;
        const bound = await boundKey(caller, header);
        if (bound?.expired && attempt === 1) {
          // Past its 24 hours the key is free again: the old binding goes, and the request is placed anew.
          await money.query({
            name: 'crud_expire_key',
            text: `DELETE FROM crud_idempotency_keys
                    WHERE partner_id = $1 AND environment = $2 AND idempotency_key = $3 AND expires_at <= now()`,
            values: [caller.partnerId, caller.environment, header],
          });
          continue;
        }
        if (!bound) throw error;
        if (bound.request_hash !== hash) throw conflict();
        return replay(reply, bound.response_body);
      }
    }
  });

  /** validate_only: every check, the balance read as it is, nothing written, the key left free. */
  const dryRun = async (caller: Caller, key: string, hash: string, body: TopupBody) => {
    const bound = await boundKey(caller, key);
    if (bound && !bound.expired && bound.request_hash !== hash) throw conflict();
    const topup = checkedTopup(body, caller.corridor);
    const rows = await money.query<{ balance: string }>({
      name: 'crud_balance_of',
      text: `SELECT balance::text AS balance FROM crud_wallets WHERE partner_id = $1 AND environment = $2`,
      values: [caller.partnerId, caller.environment],
    });
    const balance = centsOf(rows[0]?.balance ?? '0.00');
    if (balance < topup.minor) throw await insufficient(caller, topup);
    return {
      validate_only: true,
      would: {
        operator_id: topup.operatorId,
        phone: topup.phone,
        amount_local: decimalOf(topup.minor, 4),
        currency: topup.currency,
        balance_after: decimalOf(balance - topup.minor),
        reference: topup.reference,
      },
    };
  };

  app.get('/v1/partner/balance', async (request) => {
    const caller = callerOf(request);
    const rows = await money.query<{ balance: string; updated_at: Date }>({
      name: 'crud_balance',
      text: `SELECT balance::text AS balance, updated_at FROM crud_wallets WHERE partner_id = $1 AND environment = $2`,
      values: [caller.partnerId, caller.environment],
    });
    return {
      available: rows[0]?.balance ?? '0.00',
      currency: CURRENCY_OF[caller.corridor],
      corridor: caller.corridor,
      updated_at: (rows[0]?.updated_at ?? caller.createdAt).toISOString(),
      environment: caller.environment,
    };
  });

  app.get<{ Params: { orderId: string } }>('/v1/partner/transactions/:orderId', async (request) => {
    const caller = callerOf(request);
    const { orderId } = request.params;
    const rows = await money.query<OrderRow>({
      name: 'crud_order',
      text: `SELECT order_id, partner_id, environment, status, amount, currency, operator_ref, settled_at,
                    refunded_at, reference, operator_id, phone, created_at
               FROM crud_orders WHERE order_id = $1`,
      values: [orderId],
    });
    const order = rows[0];
    if (!order || order.partner_id !== caller.partnerId || order.environment !== caller.environment)
      throw refuse('not_found', `no order ${orderId}`);
    return {
      order_id: order.order_id,
      status: order.status,
      amount_local: `${order.amount}00`,
      currency: order.currency,
      operator_ref: order.status === 'SUCCESS' ? order.operator_ref : null,
      settled_at: order.settled_at?.toISOString() ?? null,
      refunded_at: order.refunded_at?.toISOString() ?? null,
      reference: order.reference,
      operator_id: order.operator_id,
      phone: order.phone,
      created_at: order.created_at.toISOString(),
    };
  });

  app.get('/health', async () => ({ status: 'ok' }));
  // For the bench: what the peer sent to PostgreSQL so far, and the orders it settled.
  app.get('/bench/counters', async () => ({
    statements: sqlCounters.statements,
    round_trips: sqlCounters.roundTrips,
    settled: worker.settled,
  }));

  await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
  const stop = async (): Promise<void> => {
    await app.close();
    await worker.stop();
    await Promise.all([money.close(), counts.close()]);
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop());
  process.on('SIGINT', () => void stop());
}

/** Fastify's own refusals of a body (before any route), with the service's details for them. */
function bodyProblem(error: Error & { statusCode?: number; code?: string }): string {
  if (error.statusCode === 413) return 'body: the request body is too large';
  if (error.statusCode === 415) return 'Content-Type: must be application/json';
  if (error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') return 'body: a JSON object is required';
  if (error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error.message.includes('JSON'))
    return 'body: malformed JSON (NaN, Infinity and "__proto__" or "constructor.prototype" keys are refused as well)';
  return error.message;
}

interface OrderRow {
  order_id: string;
  partner_id: string;
  environment: string;
  status: string;
  amount: string;
  currency: string;
  operator_ref: string | null;
  settled_at: Date | null;
  refunded_at: Date | null;
  reference: string | null;
  operator_id: number;
  phone: string;
  created_at: Date;
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
