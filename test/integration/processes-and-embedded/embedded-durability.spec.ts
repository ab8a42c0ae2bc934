import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isProcessAlive } from '../../../src/infrastructure/sql/embedded/process-alive';
import { DrillAttempt, DrillPartner, call, debitedOrders, sendAll } from '../../support/drill-load';
import { ServiceProcess } from '../../support/service-process';
import { SANDBOX_PHONES, TEST_ADMIN_TOKEN, TEST_KEY_SECRET } from '../../support/test-service';
import { SERVICE_START_TIMEOUT_MS } from '../../support/timeouts';

/*
 * Durability of the embedded mode, as real processes: concurrent topups, then a SIGKILL in the middle
 * (of the service, or of its PostgreSQL server). Afterwards every order answered 200 exists with its
 * debit, no wallet holds more than its credits minus its answered debits, each Idempotency-Key debits
 * once (every key is sent again after the crash), and verify passes.
 */
jest.setTimeout(SERVICE_START_TIMEOUT_MS * 3);

const PARTNERS = 3;
const ORDERS_PER_PARTNER = 30;
const AMOUNT = 10;
const CREDIT = 1000;
const CONCURRENCY = 16;
const PHONE = SANDBOX_PHONES.IN('0001');

/** Sends every attempt; `crash` runs once `crashAfter` of them were answered 200. */
async function load(
  url: string,
  attempts: DrillAttempt[],
  crashAfter: number,
  crash: () => Promise<void>,
): Promise<void> {
  const crashed: Promise<void>[] = [];
  await sendAll(url, attempts, CONCURRENCY, () => {
    const accepted = attempts.filter((attempt) => attempt.status === 200).length;
    if (crashed.length === 0 && crashAfter > 0 && accepted >= crashAfter) crashed.push(crash());
  });
  await Promise.all(crashed);
}

async function checkMoney(url: string, partners: DrillPartner[], attempts: DrillAttempt[]): Promise<void> {
  for (const partner of partners) {
    const answered = attempts.filter((attempt) => attempt.partner === partner && attempt.status === 200);
    for (const attempt of answered) {
      const order = await call(url, 'GET', `/v1/partner/transactions/${attempt.orderId}`, partner.key);
      expect({ orderId: attempt.orderId, status: order.status }).toEqual({ orderId: attempt.orderId, status: 200 });
    }
    const balance = await call(url, 'GET', '/v1/partner/balance', partner.key);
    expect(balance.status).toBe(200);
    expect(Number(balance.body.available)).toBeLessThanOrEqual(CREDIT - answered.length * AMOUNT);
  }
}

async function retryEveryKey(url: string, attempts: DrillAttempt[]): Promise<void> {
  const retries = attempts.map((attempt) => ({ ...attempt, status: null, orderId: null }));
  await load(url, retries, -1, async () => undefined);
  for (const [index, retry] of retries.entries()) {
    expect({ key: retry.idempotencyKey, status: retry.status }).toEqual({ key: retry.idempotencyKey, status: 200 });
    if (attempts[index].orderId) expect(retry.orderId).toBe(attempts[index].orderId);
  }
}

async function checkOneDebitPerKey(url: string, partners: DrillPartner[]): Promise<void> {
  for (const partner of partners) {
    const debits = await debitedOrders(url, partner);
    // Every key was sent until it got 200, so each of the partner's keys debited exactly once.
    expect(debits).toHaveLength(ORDERS_PER_PARTNER);
    expect(new Set(debits).size).toBe(ORDERS_PER_PARTNER);
    const balance = await call(url, 'GET', '/v1/partner/balance', partner.key);
    expect(balance.body.available).toBe((CREDIT - ORDERS_PER_PARTNER * AMOUNT).toFixed(2));
  }
  const verify = await call(url, 'GET', '/v1/admin/verify', TEST_ADMIN_TOKEN);
  expect(verify.body).toMatchObject({ ok: true, breaches: [] });
}

describe.each([
  ['the service', 'service'],
  ['its PostgreSQL server', 'server'],
] as const)('embedded mode: SIGKILL of %s in the middle of concurrent topups', (_what, victim) => {
  let dataDir: string;
  let service: ServiceProcess | null = null;
  const env = (): Record<string, string> => ({
    EVENT_STORE: 'embedded',
    DATA_DIR: dataDir,
    API_KEY_SECRET: TEST_KEY_SECRET,
    ADMIN_TOKEN: TEST_ADMIN_TOKEN,
    LOG_LEVEL: 'warn',
  });

  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), `svc-durability-${victim}-`));
  });
  afterAll(async () => {
    await service?.stop();
    const pidFile = join(dataDir, 'postgres', 'postmaster.pid');
    const leftover = existsSync(pidFile) ? Number(readFileSync(pidFile, 'utf8').split('\n')[0]) : 0;
    if (leftover && isProcessAlive(leftover)) process.kill(leftover, 'SIGINT');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('loses no answered order, debits each key once, and verify passes', async () => {
    service = await ServiceProcess.start(`durability-${victim}`, env(), SERVICE_START_TIMEOUT_MS);
    const partners: DrillPartner[] = [];
    for (let i = 0; i < PARTNERS; i++) {
      const created = await call(service.url, 'POST', '/v1/admin/partners', TEST_ADMIN_TOKEN, {
        name: `Durability ${victim} ${i}`,
        corridor: 'IN',
      });
      partners.push({ partnerId: created.body.partner_id, key: created.body.sandbox_api_key });
      const limit = await call(
        service.url,
        'PATCH',
        `/v1/admin/partners/${created.body.partner_id}/settings`,
        TEST_ADMIN_TOKEN,
        { environment: 'sandbox', rate_limit: 10_000 },
      );
      expect(limit.status).toBe(200);
    }
    const attempts: DrillAttempt[] = partners.flatMap((partner, p) =>
      Array.from({ length: ORDERS_PER_PARTNER }, (_, i) => ({
        partner,
        idempotencyKey: `durability-${victim}-${p}-${String(i).padStart(4, '0')}`,
        body: { operator_id: 101, phone: PHONE, amount: AMOUNT },
        status: null,
        orderId: null,
      })),
    );

    const running = service;
    const postmaster = Number(readFileSync(join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]);
    await load(running.url, attempts, Math.floor(attempts.length / 3), async () => {
      if (victim === 'service') await running.kill();
      else process.kill(postmaster, 'SIGKILL');
    });
    const answered = attempts.filter((attempt) => attempt.status === 200).length;
    expect(answered).toBeGreaterThanOrEqual(Math.floor(attempts.length / 3));
    expect(
      attempts.every((attempt) => attempt.status === null || attempt.status === 200 || attempt.status === 503),
    ).toBe(true);

    if (victim === 'service')
      service = await ServiceProcess.start(`durability-${victim}-again`, env(), SERVICE_START_TIMEOUT_MS);
    else await waitForHealth(running.url);
    await checkMoney(service.url, partners, attempts);
    await retryEveryKey(service.url, attempts);
    await checkOneDebitPerKey(service.url, partners);
  });
});

async function waitForHealth(url: string): Promise<void> {
  for (;;) {
    try {
      if ((await fetch(`${url}/health`)).ok) return;
    } catch {
      // restarting
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
