import { createHmac, timingSafeEqual } from 'node:crypto';
import { Client } from 'pg';
import { createTestDatabase, TestDatabase } from '../../support/postgres-test-database';
import { ReceivedWebhook, RecordingReceiver } from '../../support/recording-receiver';
import { ServiceProcess } from '../../support/service-process';
import { SANDBOX_PHONES, TEST_ADMIN_TOKEN, TEST_KEY_SECRET } from '../../support/test-service';
import { SERVICE_START_TIMEOUT_MS } from '../../support/timeouts';

/*
 * Scale-out proof with two real OS processes of the service (node src/main.ts, each with its own
 * HTTP server, projectors and job worker, background processing on, real clock) on one fresh
 * PostgreSQL database. Concurrent topups on a hot wallet, one Idempotency-Key sent to both
 * processes at once, and orders that settle or fail (and are refunded) are split across both;
 * then the money invariants hold from either process, the event log has one debit per order and
 * one refund per failed order, and every webhook arrived exactly once.
 *
 * Which process did a piece of background work is read from PostgreSQL: each process connects
 * with its own application_name (a parameter of DATABASE_URL; database, user and host are the
 * same), and a trigger the test adds to the `jobs` table notes who completed each job.
 */

const AMOUNT = 100;
const SUCCEEDS = SANDBOX_PHONES.IN('0001'); // SUCCESS at once
const FAILS = SANDBOX_PHONES.IN('0002'); // FAILED at once, refunded by a job
const SANDBOX_CREDIT = 1000;

const HOT_EXTRA_CREDIT = 1000;
const HOT_ATTEMPTS = 50;
const HOT_ACCEPTED = (SANDBOX_CREDIT + HOT_EXTRA_CREDIT) / AMOUNT; // 20
const MIXED_PARTNERS = 4;
const MIXED_ORDERS_PER_PARTNER = 10; // half succeed, half fail: 10 x 100.00 fits the 1,000.00 starting credit
const SAME_KEY_COPIES = 8; // per key, half to each process
const SAME_KEYS = [
  { key: 'scale-out-same-key-succeeds', phone: SUCCEEDS, outcome: 'SUCCESS' },
  { key: 'scale-out-same-key-fails', phone: FAILS, outcome: 'FAILED' },
] as const;

const SETTLE_TIMEOUT_MS = 30_000;

/** Notes which process (application_name) completed each job; added by the test, dropped with the database. */
const JOB_ATTRIBUTION_SQL = `
CREATE TABLE test_job_completions (job_id text NOT NULL, kind text NOT NULL, completed_by text NOT NULL);
CREATE FUNCTION test_note_job_completion() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.done_at IS NOT NULL AND OLD.done_at IS NULL THEN
    INSERT INTO test_job_completions VALUES (NEW.job_id, NEW.kind, current_setting('application_name'));
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER test_note_job_completion AFTER UPDATE ON jobs FOR EACH ROW EXECUTE FUNCTION test_note_job_completion();
`;

interface Answer {
  /** The process that answered. */
  via: ServiceProcess;
  status: number;
  headers: Headers;
  text: string;
  body: any;
}

interface Partner {
  name: string;
  partnerId: string;
  key: string;
  webhookSecret: string;
  funding: number;
}

type FinalStatus = 'SUCCESS' | 'FAILED';

interface Order {
  orderId: string;
  partner: Partner;
  expected: FinalStatus;
}

async function call(
  service: ServiceProcess,
  method: string,
  path: string,
  token: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const response = await fetch(`${service.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { via: service, status: response.status, headers: response.headers, text, body: parsed };
}

const admin = (service: ServiceProcess, method: string, path: string, body?: unknown) =>
  call(service, method, `/v1/admin${path}`, TEST_ADMIN_TOKEN, body);
const topup = (service: ServiceProcess, partner: Partner, phone: string, idempotencyKey: string) =>
  call(
    service,
    'POST',
    '/v1/partner/topup',
    partner.key,
    { operator_id: 101, phone, amount: AMOUNT },
    { 'idempotency-key': idempotencyKey },
  );

const statusCounts = (answers: Answer[]): Record<string, number> => {
  const counts: Record<string, number> = {};
  for (const answer of answers) {
    const label = answer.status === 200 ? '200' : `${answer.status} ${answer.body?.error}`;
    counts[label] = (counts[label] ?? 0) + 1;
  }
  return counts;
};

/** A 5xx is never an expected answer: fail with what was answered and what the processes logged. */
function failOnServerErrors(answers: Answer[]): void {
  const errors = answers.filter((answer) => answer.status >= 500);
  if (errors.length === 0) return;
  const samples = errors.slice(0, 3).map((answer) => `${answer.via.name} answered ${answer.status}: ${answer.text}`);
  const logs = [...new Set(errors.map((answer) => answer.via))].map(
    (service) => `--- ${service.name}'s log (last lines):\n${service.output.slice(-6000)}`,
  );
  throw new Error(
    `${errors.length} of ${answers.length} requests answered 5xx:\n${samples.join('\n')}\n${logs.join('\n')}`,
  );
}

/** Polls until `missing()` answers null (nothing missing any more), or fails with what was still missing at the deadline. */
async function waitUntil(what: string, timeoutMs: number, missing: () => Promise<string | null>): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (let pause = 20; ; pause = Math.min(pause * 2, 200)) {
    const left = await missing();
    if (left === null) return;
    if (Date.now() > deadline) throw new Error(`${what}: not reached within ${timeoutMs} ms; still missing: ${left}`);
    await new Promise((resolve) => setTimeout(resolve, pause));
  }
}

/** Sum of one gauge (over its labels) in the service's Prometheus text. */
const gauge = (metrics: string, name: string): number =>
  metrics
    .split('\n')
    .filter((line) => line.startsWith(`partner_service_${name} `) || line.startsWith(`partner_service_${name}{`))
    .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);

/** The X-Partner-Signature check of docs/webhooks.md (timestamp window left out: the body is what matters here). */
function signedWith(webhook: ReceivedWebhook, secret: string): boolean {
  const header = String(webhook.headers['x-partner-signature'] ?? '');
  const parts = header.split(',').map((part) => part.split('='));
  const t = parts.find(([name]) => name === 't')?.[1];
  const expected = createHmac('sha256', secret).update(`${t}.${webhook.rawBody}`).digest();
  return parts.some(
    ([name, hex]) => name === 'v1' && /^[0-9a-f]{64}$/.test(hex) && timingSafeEqual(Buffer.from(hex, 'hex'), expected),
  );
}

describe('two service processes (separate OS processes) on one PostgreSQL database', () => {
  let database: TestDatabase;
  let receiver: RecordingReceiver;
  let pg: Client;
  let a: ServiceProcess;
  let b: ServiceProcess;
  /** Request i goes to A when even, to B when odd. */
  const via = (i: number): ServiceProcess => (i % 2 === 0 ? a : b);

  let hot: Partner;
  let sameKeyPartner: Partner;
  let mixed: Partner[];
  const orders: Order[] = [];

  /** A runs everything on one event loop; B runs projections and jobs on its background thread. */
  const processEnv = (applicationName: string, backgroundWork: 'inline' | 'thread'): Record<string, string> => {
    const url = new URL(database.connectionString);
    url.searchParams.set('application_name', applicationName);
    return {
      EVENT_STORE: 'postgres',
      DATABASE_URL: url.toString(),
      API_KEY_SECRET: TEST_KEY_SECRET,
      ADMIN_TOKEN: TEST_ADMIN_TOKEN,
      LOG_LEVEL: 'warn',
      BACKGROUND_WORK: backgroundWork,
      // The receiver listens on 127.0.0.1: a private deployment's opt-in.
      WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true',
    };
  };

  beforeAll(async () => {
    database = await createTestDatabase('scale_out');
    receiver = await RecordingReceiver.start();
    // A creates the schema; B starts on a migrated database (the schema step is idempotent either way).
    a = await ServiceProcess.start('A', processEnv('scale-out-a', 'inline'));
    pg = new Client({ connectionString: database.connectionString, application_name: 'scale-out-test' });
    await pg.connect();
    await pg.query(JOB_ATTRIBUTION_SQL);
    b = await ServiceProcess.start('B', processEnv('scale-out-b', 'thread'));
  }, SERVICE_START_TIMEOUT_MS);

  afterAll(async () => {
    try {
      await Promise.all([a?.stop(), b?.stop()]);
    } finally {
      await pg?.end().catch(() => undefined);
      await receiver?.stop();
      await database?.drop();
    }
  }, 40_000);

  it('starts two processes with their own pids and ports', () => {
    expect(a.pid).toBeGreaterThan(0);
    expect(b.pid).toBeGreaterThan(0);
    expect(a.pid).not.toBe(b.pid);
    expect(a.pid).not.toBe(process.pid);
    expect(a.url).not.toBe(b.url);
  });

  it('onboards partners through A; their keys, balances and webhook settings work through B', async () => {
    const onboard = async (name: string, extraCredit: number): Promise<Partner> => {
      const created = await admin(a, 'POST', '/partners', { name, corridor: 'IN' });
      expect(created.status).toBe(201);
      const partnerId: string = created.body.partner_id;
      if (extraCredit > 0) {
        const credited = await admin(a, 'POST', `/partners/${partnerId}/wallet-credits`, {
          environment: 'sandbox',
          amount: extraCredit.toFixed(2),
          reference: 'scale-out funding',
        });
        expect(credited.status).toBe(200);
      }
      // Webhook URL (the secret is created and sealed by B) and a rate limit that the burst does not hit.
      const configured = await admin(b, 'PATCH', `/partners/${partnerId}/settings`, {
        environment: 'sandbox',
        webhook_url: receiver.url,
        rate_limit: 100_000,
      });
      expect(configured.status).toBe(200);
      expect(configured.body.webhook_secret).toEqual(expect.any(String));
      return {
        name,
        partnerId,
        key: created.body.sandbox_api_key,
        webhookSecret: configured.body.webhook_secret,
        funding: SANDBOX_CREDIT + extraCredit,
      };
    };
    hot = await onboard('Hot Wallet Partner', HOT_EXTRA_CREDIT);
    sameKeyPartner = await onboard('Retrying Partner', 0);
    mixed = await Promise.all(Array.from({ length: MIXED_PARTNERS }, (_, i) => onboard(`Mixed Partner ${i}`, 0)));

    for (const partner of [hot, sameKeyPartner, ...mixed]) {
      const seenByB = await call(b, 'GET', '/v1/partner/balance', partner.key);
      expect({ partner: partner.name, status: seenByB.status, available: seenByB.body?.available }).toEqual({
        partner: partner.name,
        status: 200,
        available: partner.funding.toFixed(2),
      });
    }
  });

  it('drives concurrent topups, same-key retries and settling orders through both processes at once', async () => {
    const hotAnswers: Promise<Answer>[] = [];
    const sameKeyAnswers: Promise<Answer>[][] = SAME_KEYS.map(() => []);
    const mixedAnswers: { partner: Partner; expected: FinalStatus; answer: Promise<Answer> }[] = [];

    // Interleaved so that all three kinds of traffic are in flight on both processes together.
    for (let round = 0; round < HOT_ATTEMPTS; round++) {
      hotAnswers.push(topup(via(round), hot, SUCCEEDS, `scale-out-hot-${round}`));
      if (round < SAME_KEY_COPIES) {
        SAME_KEYS.forEach((same, k) =>
          sameKeyAnswers[k].push(topup(via(round + k), sameKeyPartner, same.phone, same.key)),
        );
      }
      if (round < MIXED_ORDERS_PER_PARTNER) {
        mixed.forEach((partner, p) => {
          const expected: FinalStatus = round % 2 === 0 ? 'SUCCESS' : 'FAILED';
          mixedAnswers.push({
            partner,
            expected,
            answer: topup(
              via(round + p),
              partner,
              expected === 'SUCCESS' ? SUCCEEDS : FAILS,
              `scale-out-mixed-${p}-${round}`,
            ),
          });
        });
      }
    }
    const hotSettled = await Promise.all(hotAnswers);
    const sameKeySettled = await Promise.all(sameKeyAnswers.map((answers) => Promise.all(answers)));
    const mixedSettled = await Promise.all(
      mixedAnswers.map(async (entry) => ({ ...entry, answer: await entry.answer })),
    );
    failOnServerErrors([...hotSettled, ...sameKeySettled.flat(), ...mixedSettled.map((entry) => entry.answer)]);

    // Hot wallet: exactly as many accepted as the funding covers, every other one refused, never below zero.
    expect(statusCounts(hotSettled)).toEqual({
      '200': HOT_ACCEPTED,
      '402 insufficient_balance': HOT_ATTEMPTS - HOT_ACCEPTED,
    });
    const hotAccepted = hotSettled.filter((answer) => answer.status === 200);
    const balancesAfter = hotAccepted.map((answer) => Number(answer.body.balance_after)).sort((x, y) => x - y);
    expect(balancesAfter).toEqual(Array.from({ length: HOT_ACCEPTED }, (_, i) => i * AMOUNT));
    for (const answer of hotAccepted) orders.push({ orderId: answer.body.order_id, partner: hot, expected: 'SUCCESS' });

    // One key, sent to both processes at once: one order, one first answer, the rest byte-identical replays.
    SAME_KEYS.forEach((same, k) => {
      const answers = sameKeySettled[k];
      expect({ key: same.key, statuses: statusCounts(answers) }).toEqual({
        key: same.key,
        statuses: { '200': SAME_KEY_COPIES },
      });
      expect(new Set(answers.map((answer) => answer.text)).size).toBe(1);
      expect(answers.filter((answer) => answer.headers.get('idempotent-replay') !== 'true')).toHaveLength(1);
      orders.push({ orderId: answers[0].body.order_id, partner: sameKeyPartner, expected: same.outcome });
    });

    // Mixed numbers: all accepted (the failures are refunded later, by a job).
    expect(statusCounts(mixedSettled.map((entry) => entry.answer))).toEqual({
      '200': MIXED_PARTNERS * MIXED_ORDERS_PER_PARTNER,
    });
    for (const { partner, expected, answer } of mixedSettled)
      orders.push({ orderId: answer.body.order_id, partner, expected });

    expect(new Set(orders.map((order) => order.orderId)).size).toBe(
      HOT_ACCEPTED + SAME_KEYS.length + MIXED_PARTNERS * MIXED_ORDERS_PER_PARTNER,
    );
  });

  it(
    'every order reaches its final status, the same through both processes, and the background work runs dry',
    async () => {
      const final = new Map<string, string>();
      let round = 0;
      await waitUntil('every order SUCCESS or FAILED through GET /transactions/{id}', SETTLE_TIMEOUT_MS, async () => {
        round += 1;
        const pending = orders.filter((order) => !final.has(order.orderId));
        const answers = await Promise.all(
          pending.map((order, i) =>
            call(via(i + round), 'GET', `/v1/partner/transactions/${order.orderId}`, order.partner.key),
          ),
        );
        failOnServerErrors(answers);
        answers.forEach((answer, i) => {
          expect(answer.status).toBe(200);
          if (answer.body.status !== 'PENDING') final.set(pending[i].orderId, answer.body.status);
        });
        const left = orders.length - final.size;
        return left === 0 ? null : `${left} of ${orders.length} orders still PENDING`;
      });
      for (const order of orders)
        expect({ order: order.orderId, status: final.get(order.orderId) }).toEqual({
          order: order.orderId,
          status: order.expected,
        });

      // Until every webhook has arrived and neither process has anything left to do.
      await waitUntil('webhooks delivered and background work done', SETTLE_TIMEOUT_MS, async () => {
        const missing: string[] = [];
        if (receiver.received.length < orders.length)
          missing.push(`${orders.length - receiver.received.length} webhooks`);
        for (const service of [a, b]) {
          const metrics = await call(service, 'GET', '/metrics', TEST_ADMIN_TOKEN);
          for (const name of ['jobs_due', 'projection_lag_events', 'events_not_yet_readable']) {
            const value = gauge(metrics.text, name);
            if (value !== 0) missing.push(`${service.name}: ${name} = ${value}`);
          }
        }
        return missing.length ? missing.join(', ') : null;
      });

      // Both processes now answer the same final status for every order.
      const seen = await Promise.all(
        orders.flatMap((order) =>
          [a, b].map(async (service) => ({
            order: order.orderId,
            via: service.name,
            status: (await call(service, 'GET', `/v1/partner/transactions/${order.orderId}`, order.partner.key)).body
              ?.status,
          })),
        ),
      );
      for (const entry of seen)
        expect(entry.status).toBe(orders.find((order) => order.orderId === entry.order)?.expected);
    },
    SETTLE_TIMEOUT_MS * 2 + 10_000,
  );

  it('verify passes through both processes: the six money invariants hold, no refund still outstanding', async () => {
    for (const service of [a, b]) {
      const report = await admin(service, 'GET', '/verify');
      expect({
        via: service.name,
        status: report.status,
        ok: report.body?.ok,
        breaches: report.body?.breaches,
        in_progress: report.body?.in_progress,
      }).toEqual({
        via: service.name,
        status: 200,
        ok: true,
        breaches: [],
        in_progress: [],
      });
    }
  });

  it('the event log holds exactly one debit and one outcome per order, and one refund per failed order only', async () => {
    const { rows } = await pg.query<{ order_id: string; event_type: string; n: number }>(
      `SELECT metadata->>'correlationId' AS order_id, event_type, count(*)::int AS n
         FROM es_events
        WHERE event_type IN ('WalletDebited', 'WalletRefunded', 'TransactionSettled', 'TransactionFailed')
        GROUP BY 1, 2`,
    );
    const counted = new Map<string, Record<string, number>>();
    for (const row of rows) counted.set(row.order_id, { ...counted.get(row.order_id), [row.event_type]: row.n });
    // No money moved for anything but the accepted orders (the 402s and the replays debited nothing).
    expect([...counted.keys()].sort()).toEqual(orders.map((order) => order.orderId).sort());
    for (const order of orders) {
      const expected =
        order.expected === 'SUCCESS'
          ? { WalletDebited: 1, TransactionSettled: 1 }
          : { WalletDebited: 1, TransactionFailed: 1, WalletRefunded: 1 };
      expect({ order: order.orderId, events: counted.get(order.orderId) }).toEqual({
        order: order.orderId,
        events: expected,
      });
    }

    const sameKeyDebits = await pg.query<{ key: string; n: number }>(
      `SELECT data->>'idempotencyKey' AS key, count(*)::int AS n FROM es_events WHERE event_type = 'WalletDebited' GROUP BY stream_id, 1 HAVING count(*) > 1`,
    );
    expect(sameKeyDebits.rows).toEqual([]);
    const negative = await pg.query(
      `SELECT stream_id, stream_revision FROM es_events WHERE data ? 'balanceAfter' AND (data->>'balanceAfter')::numeric < 0`,
    );
    expect(negative.rows).toEqual([]);
  });

  it('every balance, read through either process, is its funding minus its successful topups', async () => {
    for (const partner of [hot, sameKeyPartner, ...mixed]) {
      const succeeded = orders.filter((order) => order.partner === partner && order.expected === 'SUCCESS').length;
      const expected = (partner.funding - succeeded * AMOUNT).toFixed(2);
      for (const service of [a, b]) {
        const balance = await call(service, 'GET', '/v1/partner/balance', partner.key);
        expect({ partner: partner.name, via: service.name, available: balance.body?.available }).toEqual({
          partner: partner.name,
          via: service.name,
          available: expected,
        });
      }
    }
    expect((await call(a, 'GET', '/v1/partner/balance', hot.key)).body.available).toBe('0.00');
  });

  it('settlements, refunds and webhook deliveries ran in both processes’ job workers, each job completed once', async () => {
    const { rows } = await pg.query<{ kind: string; completed_by: string; n: number }>(
      `SELECT kind, completed_by, count(*)::int AS n FROM test_job_completions GROUP BY 1, 2 ORDER BY 1, 2`,
    );
    const byKind = (kind: string): Record<string, number> =>
      Object.fromEntries(rows.filter((row) => row.kind === kind).map((row) => [row.completed_by, row.n]));
    const failed = orders.filter((order) => order.expected === 'FAILED').length;
    // Orders answered at placement (instant sandbox outcomes, with their key bound in the debit) are never submitted.
    const submitted = await pg.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM es_events
        WHERE event_type = 'WalletDebited' AND data->>'orderId' = ANY($1::text[]) AND NOT (data ? 'answeredWithDebit')`,
      [orders.map((order) => order.orderId)],
    );
    const totals = {
      'submit-order': submitted.rows[0].n,
      'refund-order': failed,
      'deliver-webhook': orders.length,
    };
    for (const [kind, total] of Object.entries(totals)) {
      // Every job of the kind completed exactly once, by whichever worker claimed it first.
      expect({ kind, total: Object.values(byKind(kind)).reduce((sum, n) => sum + n, 0) }).toEqual({ kind, total });
    }
    // Both job workers (A's on its event loop, B's on its background thread) took part.
    expect([...new Set(rows.map((row) => row.completed_by))].sort()).toEqual(['scale-out-a', 'scale-out-b']);
    const twice = await pg.query(`SELECT job_id FROM test_job_completions GROUP BY job_id HAVING count(*) > 1`);
    expect(twice.rows).toEqual([]);
  });

  it("counts each outcome and refund once: A's metrics plus B's (its background thread included) add up to the orders", async () => {
    const total = (text: string, metric: string): number =>
      text
        .split('\n')
        .filter((line) => line.startsWith(`${metric}{`) || line.startsWith(`${metric} `))
        .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
    const scrapes = await Promise.all(
      [a, b].map(async (service) => (await call(service, 'GET', '/metrics', TEST_ADMIN_TOKEN)).text),
    );
    const failed = orders.filter((order) => order.expected === 'FAILED').length;
    expect({
      outcomes: scrapes.reduce((sum, text) => sum + total(text, 'partner_service_order_outcomes_total'), 0),
      refunds: scrapes.reduce((sum, text) => sum + total(text, 'partner_service_refunds_total'), 0),
    }).toEqual({ outcomes: orders.length, refunds: failed });
  });

  it('both processes stop cleanly on SIGTERM and leave no PostgreSQL session behind', async () => {
    const [exitA, exitB] = await Promise.all([a.stop(), b.stop()]);
    // A clean stop is exit code 0 once the shutdown hooks are done. A failed hook exits with 1;
    // a hang past the grace period is killed (forced).
    for (const [name, exit] of [
      ['A', exitA],
      ['B', exitB],
    ] as const) {
      const clean = !exit.forced && exit.code === 0 && exit.signal === null;
      expect({ service: name, exit, clean }).toEqual({ service: name, exit, clean: true });
    }
    for (const service of [a, b])
      expect({
        service: service.name,
        errors: service.output.split('\n').filter((line) => /"level":[56]0|Error/.test(line)),
      }).toEqual({ service: service.name, errors: [] });
    await waitUntil('the processes’ PostgreSQL sessions gone', 5_000, async () => {
      const { rows } = await pg.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name IN ('scale-out-a', 'scale-out-b')`,
      );
      return rows[0].n === 0 ? null : `${rows[0].n} sessions`;
    });
  }, 40_000);

  it('with both processes gone: every webhook event was received exactly once, one per final order, signed, with one recorded attempt', async () => {
    expect(a.running || b.running).toBe(false);
    const received = receiver.received.map((webhook) => ({
      webhook,
      body: JSON.parse(webhook.rawBody) as Record<string, string>,
    }));
    const perEventId = new Map<string, number>();
    for (const { body } of received) perEventId.set(body.event_id, (perEventId.get(body.event_id) ?? 0) + 1);
    expect([...perEventId.entries()].filter(([, n]) => n > 1)).toEqual([]);
    expect(received).toHaveLength(orders.length);

    for (const order of orders) {
      const forOrder = received.filter(({ body }) => body.order_id === order.orderId);
      expect({ order: order.orderId, events: forOrder.map(({ body }) => body.event) }).toEqual({
        order: order.orderId,
        events: [order.expected === 'SUCCESS' ? 'transaction.succeeded' : 'transaction.failed'],
      });
      const [{ webhook, body }] = forOrder;
      expect(webhook.headers['x-partner-event-id']).toBe(body.event_id);
      expect(signedWith(webhook, order.partner.webhookSecret)).toBe(true);
    }

    const attempts = await pg.query<{ delivery_id: string; attempt: number; status_code: number | null }>(
      `SELECT d.delivery_id, a.attempt, a.status_code FROM webhook_deliveries d LEFT JOIN webhook_attempts a USING (delivery_id) ORDER BY 1, 2`,
    );
    expect(attempts.rows.map((row) => row.delivery_id).sort()).toEqual([...perEventId.keys()].sort());
    for (const row of attempts.rows)
      expect({ delivery: row.delivery_id, attempt: row.attempt, status: row.status_code }).toEqual({
        delivery: row.delivery_id,
        attempt: 1,
        status: 200,
      });
  });
});
