import { request as httpRequest } from 'node:http';
import { hostname } from 'node:os';
import { Client } from 'pg';
import { createTestDatabase, TestDatabase } from '../../support/postgres-test-database';
import { ServiceProcess } from '../../support/service-process';
import { SANDBOX_PHONES, TEST_ADMIN_TOKEN, TEST_KEY_SECRET } from '../../support/test-service';
import { SERVICE_START_TIMEOUT_MS } from '../../support/timeouts';
import { waitFor } from '../../support/wait-for';

/*
 * HTTP_PROCESSES=2: one command starts a group of service processes on one port. Every request
 * here opens its own connection (no keep-alive), so the group hands successive requests to
 * different processes; which process answered is read from /metrics (partner_service_process_id).
 */

const AMOUNT = 100;
const SANDBOX_CREDIT = 1000;
const HOT_ATTEMPTS = 30;
const HOT_ACCEPTED = SANDBOX_CREDIT / AMOUNT;
const SAME_KEY_COPIES = 6;

interface Answer {
  status: number;
  text: string;
  body: any;
}

/** One request on a connection of its own. */
function call(
  url: string,
  method: string,
  path: string,
  token: string,
  body?: unknown,
  headers: Record<string, string> = {},
  timeoutMs = 10_000,
): Promise<Answer> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      `${url}${path}`,
      {
        method,
        agent: false,
        headers: {
          authorization: `Bearer ${token}`,
          connection: 'close',
          ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
          ...headers,
        },
      },
      (incoming) => {
        const chunks: Buffer[] = [];
        incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
        incoming.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: unknown;
          try {
            parsed = text ? JSON.parse(text) : undefined;
          } catch {
            parsed = undefined;
          }
          resolve({ status: incoming.statusCode ?? 0, text, body: parsed });
        });
      },
    );
    outgoing.on('error', reject);
    outgoing.setTimeout(timeoutMs, () =>
      outgoing.destroy(new Error(`${method} ${path}: no answer within ${timeoutMs} ms`)),
    );
    outgoing.end(payload);
  });
}

const processIdOf = (metrics: string): number => Number(/^partner_service_process_id (\d+)$/m.exec(metrics)?.[1]);

const isRunning = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('HTTP_PROCESSES=2: a group of service processes on one port and one PostgreSQL database', () => {
  let database: TestDatabase;
  let group: ServiceProcess;
  let pg: Client;
  const answeredBy = new Set<number>();
  const admin = (method: string, path: string, body?: unknown) =>
    call(group.url, method, `/v1/admin${path}`, TEST_ADMIN_TOKEN, body);

  beforeAll(async () => {
    database = await createTestDatabase('http_processes');
    group = await ServiceProcess.start('group', {
      EVENT_STORE: 'postgres',
      DATABASE_URL: database.connectionString,
      API_KEY_SECRET: TEST_KEY_SECRET,
      ADMIN_TOKEN: TEST_ADMIN_TOKEN,
      LOG_LEVEL: 'warn',
      HTTP_PROCESSES: '2',
    });
    pg = new Client({ connectionString: database.connectionString });
    await pg.connect();
  }, SERVICE_START_TIMEOUT_MS);

  afterAll(async () => {
    try {
      await group?.stop();
    } finally {
      await pg?.end().catch(() => undefined);
      await database?.drop();
    }
  }, 40_000);

  it('answers from two worker processes, neither of them the one that was started', async () => {
    const deadline = Date.now() + 60_000;
    // The group answers /health as soon as its first process listens; the second may still be starting.
    while (answeredBy.size < 2 && Date.now() < deadline) {
      const metrics = await call(group.url, 'GET', '/metrics', TEST_ADMIN_TOKEN);
      expect(metrics.status).toBe(200);
      answeredBy.add(processIdOf(metrics.text));
    }
    expect(answeredBy.size).toBe(2);
    for (const pid of answeredBy) {
      expect(pid).toBeGreaterThan(0);
      expect(pid).not.toBe(group.pid);
    }
  }, 70_000);

  it('shows in every scrape the counters of both processes added up (prom-client over node:cluster)', async () => {
    const probes = 30;
    for (let i = 0; i < probes; i++)
      expect((await call(group.url, 'GET', '/health/live', TEST_ADMIN_TOKEN)).status).toBe(200);
    const series = 'partner_service_http_requests_total{method="GET",route="/health/live",status="200"}';
    const scrapedBy = new Set<number>();
    for (let i = 0; i < 40 && scrapedBy.size < 2; i++) {
      const metrics = await call(group.url, 'GET', '/metrics', TEST_ADMIN_TOKEN);
      scrapedBy.add(processIdOf(metrics.text));
      const line = metrics.text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
      expect(Number(line?.slice(series.length + 1))).toBe(probes);
    }
    expect(scrapedBy.size).toBe(2);
  }, 30_000);

  it('spends one wallet from both processes at once without overdrawing it, and debits a repeated key once', async () => {
    const created = await admin('POST', '/partners', { name: 'Group Partner', corridor: 'IN' });
    expect(created.status).toBe(201);
    const key: string = created.body.sandbox_api_key;
    const settings = await admin('PATCH', `/partners/${created.body.partner_id}/settings`, {
      environment: 'sandbox',
      rate_limit: 100_000,
    });
    expect(settings.status).toBe(200);

    const topup = (idempotencyKey: string) =>
      call(
        group.url,
        'POST',
        '/v1/partner/topup',
        key,
        { operator_id: 101, phone: SANDBOX_PHONES.IN('0001'), amount: AMOUNT },
        { 'idempotency-key': idempotencyKey },
      );
    const [hot, sameKey] = await Promise.all([
      Promise.all(Array.from({ length: HOT_ATTEMPTS }, (_, i) => topup(`group-hot-${i}`))),
      Promise.all(Array.from({ length: SAME_KEY_COPIES }, () => topup('group-same-key'))),
    ]);

    const all = [...hot, ...sameKey];
    expect(all.filter((answer) => answer.status >= 500).map((answer) => answer.text)).toEqual([]);
    const accepted = all.filter((answer) => answer.status === 200);
    const refused = all.filter((answer) => answer.status !== 200);
    // The repeated key is one order: its copies answer the same order (a 409 only if the first took longer than IDEMPOTENCY_WAIT_MS).
    const sameKeyOrders = new Set(
      sameKey.filter((answer) => answer.status === 200).map((answer) => answer.body.order_id),
    );
    expect(sameKeyOrders.size).toBeLessThanOrEqual(1);
    for (const answer of refused)
      expect(['insufficient_balance', 'idempotency_conflict']).toContain(answer.body?.error);

    const orders = new Set(accepted.map((answer) => answer.body.order_id));
    expect(orders.size).toBe(HOT_ACCEPTED);
    const balancesAfter = [...new Set(accepted.map((answer) => answer.body.balance_after as string))]
      .map(Number)
      .sort((x, y) => x - y);
    expect(balancesAfter).toEqual(Array.from({ length: HOT_ACCEPTED }, (_, i) => i * AMOUNT));

    const { rows } = await pg.query<{ n: number; keys: number }>(
      `SELECT count(*)::int AS n, count(DISTINCT metadata->>'correlationId')::int AS keys FROM es_events WHERE event_type = 'WalletDebited'`,
    );
    expect(rows[0]).toEqual({ n: HOT_ACCEPTED, keys: HOT_ACCEPTED });

    const balance = await call(group.url, 'GET', '/v1/partner/balance', key);
    expect(balance.body?.available).toBe('0.00');
  }, 60_000);

  it('logs a live call without a live provider as one warn line naming the answering process, not as an error with a stack', async () => {
    const created = await admin('POST', '/partners', { name: 'Live Partner', corridor: 'IN' });
    const approved = await admin('POST', `/partners/${created.body.partner_id}/kyc`, { status: 'approved' });
    await admin('POST', `/partners/${created.body.partner_id}/wallet-credits`, {
      environment: 'live',
      amount: '100.00',
      reference: 'funding',
    });
    const refused = await call(
      group.url,
      'POST',
      '/v1/partner/topup',
      approved.body.live_api_key,
      { operator_id: 101, phone: '+919876543210', amount: 10 },
      { 'idempotency-key': 'group-live-1' },
    );
    expect(refused.status).toBe(503);
    // The child's output reaches this process through a pipe, shortly after the answer.
    const deadline = Date.now() + 10_000;
    const lineOf = () =>
      group.output.split('\n').find((line) => line.includes('provider_unavailable') && line.startsWith('{'));
    while (!lineOf() && Date.now() < deadline) await new Promise((resolve) => setImmediate(resolve));
    const line = JSON.parse(lineOf() ?? 'null');
    expect(line).toMatchObject({
      level: 40,
      service: 'partner-service',
      hostname: hostname(),
      context: 'ApiExceptionFilter',
    });
    expect(answeredBy.has(line.pid)).toBe(true);
    expect(line.msg).toContain('POST /v1/partner/topup');
    expect(line.msg).not.toContain('\n    at ');
    expect(group.output).not.toContain('"level":50');
  });

  it('verify finds the six money invariants holding', async () => {
    const report = await admin('GET', '/verify');
    expect({ status: report.status, ok: report.body?.ok, breaches: report.body?.breaches }).toEqual({
      status: 200,
      ok: true,
      breaches: [],
    });
  }, 30_000);

  it('replaces a process that dies', async () => {
    const [victim] = answeredBy;
    // Scrapes in flight as the victim dies: for each, the primary asks every process for its metrics,
    // and a message to the dead one fails; the group must outlive that, not go down with it.
    let scraping = true;
    const scrapers = Array.from({ length: 4 }, async () => {
      while (scraping)
        await call(group.url, 'GET', '/metrics', TEST_ADMIN_TOKEN, undefined, {}, 2_000).catch(() => null);
    });
    await call(group.url, 'GET', '/metrics', TEST_ADMIN_TOKEN, undefined, {}, 2_000);
    process.kill(victim, 'SIGKILL');
    await waitFor(() => !isRunning(victim), { what: 'the killed process to be gone' });
    await call(group.url, 'GET', '/metrics', TEST_ADMIN_TOKEN, undefined, {}, 2_000).catch(() => null);
    scraping = false;
    await Promise.all(scrapers);
    const replacement = new Set<number>();
    const lost: string[] = [];
    const deadline = Date.now() + 30_000;
    while (replacement.size === 0 && Date.now() < deadline) {
      // A connection handed to the process in the instant it dies is lost with it (node:cluster); the client retries.
      const metrics = await call(group.url, 'GET', '/metrics', TEST_ADMIN_TOKEN, undefined, {}, 2_000).catch(
        (error: unknown) => {
          lost.push(error instanceof Error ? error.message : String(error));
          return null;
        },
      );
      if (!metrics) continue;
      expect(metrics.status).toBe(200);
      const pid = processIdOf(metrics.text);
      if (!answeredBy.has(pid)) replacement.add(pid);
    }
    expect({
      replaced: replacement.size,
      lost: lost.length <= 1,
      output: replacement.size ? '' : group.output,
    }).toEqual({ replaced: 1, lost: true, output: '' });
    expect(isRunning(victim)).toBe(false);
    answeredBy.delete(victim);
    for (const pid of replacement) answeredBy.add(pid);
  }, 40_000);

  it('stops as a whole on SIGTERM: the processes drain and the group exits cleanly', async () => {
    const stopped = await group.stop();
    expect(stopped).toEqual({ code: 0, signal: null, forced: false });
    for (const pid of answeredBy) expect(isRunning(pid)).toBe(false);
  }, 30_000);
});
