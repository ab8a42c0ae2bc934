import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isProcessAlive } from '../../../src/infrastructure/sql/embedded/process-alive';
import {
  DrillAttempt,
  call,
  debitedOrders,
  drillPartner,
  resendUntilAccepted,
  sendAll,
  verifyUntilClean,
} from '../../support/drill-load';
import { ServiceProcess } from '../../support/service-process';
import { SANDBOX_PHONES, TEST_ADMIN_TOKEN, TEST_KEY_SECRET } from '../../support/test-service';
import { SERVICE_START_TIMEOUT_MS } from '../../support/timeouts';

/*
 * Failure drill: PostgreSQL restarted under load. The machine's shared server is left alone: the
 * service runs in embedded mode, as its own process, and its own PostgreSQL server gets a fast
 * shutdown (SIGINT to the postmaster: sessions are ended, open transactions roll back, a clean
 * checkpoint is written) in the middle of concurrent topups. The service starts it again and
 * rides through: requests of the outage answer 503, later ones 200 without a restart of the
 * service, every key sent again gets its 200, each key debits once, and verify passes.
 */
jest.setTimeout(SERVICE_START_TIMEOUT_MS * 2);

const ORDERS = 90;
const AMOUNT = 10;
const CREDIT = 1000;

const postmasterPid = (dataDir: string): number =>
  Number(readFileSync(join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]);

describe('failure drill: the embedded PostgreSQL server restarted under load', () => {
  let dataDir: string;
  let service: ServiceProcess | null = null;

  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'svc-drill-restart-'));
  });
  afterAll(async () => {
    await service?.stop();
    const pidFile = join(dataDir, 'postgres', 'postmaster.pid');
    const leftover = existsSync(pidFile) ? postmasterPid(dataDir) : 0;
    if (leftover && isProcessAlive(leftover)) process.kill(leftover, 'SIGINT');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers 503 during the restart and 200 after it, keeps every 200, debits each key once, and verify passes', async () => {
    service = await ServiceProcess.start(
      'drill-postgres-restart',
      {
        EVENT_STORE: 'embedded',
        DATA_DIR: dataDir,
        API_KEY_SECRET: TEST_KEY_SECRET,
        ADMIN_TOKEN: TEST_ADMIN_TOKEN,
        LOG_LEVEL: 'error',
      },
      SERVICE_START_TIMEOUT_MS,
    );
    const url = service.url;
    const partner = await drillPartner(url, 'Restart Drill');
    const attempts: DrillAttempt[] = Array.from({ length: ORDERS }, (_, i) => ({
      partner,
      idempotencyKey: `drill-restart-${String(i).padStart(4, '0')}`,
      body: { operator_id: 101, phone: SANDBOX_PHONES.IN('0001'), amount: AMOUNT },
      status: null,
      orderId: null,
    }));
    const before = postmasterPid(dataDir);
    await sendAll(url, attempts, 8, (answered) => {
      if (answered === 20) process.kill(before, 'SIGINT');
    });
    expect(attempts.filter((attempt) => attempt.status !== 200 && attempt.status !== 503)).toEqual([]);
    const answeredBefore = attempts.filter((attempt) => attempt.status === 200).map((attempt) => attempt.orderId);
    // Requests that met the server down were refused whole (503), with nothing written.
    expect(attempts.some((attempt) => attempt.status === 503)).toBe(true);

    // The same service process, with a new postmaster under it.
    await resendUntilAccepted(url, attempts);
    expect(service.running).toBe(true);
    expect(postmasterPid(dataDir)).not.toBe(before);
    expect(isProcessAlive(before)).toBe(false);

    const debits = await debitedOrders(url, partner);
    for (const orderId of answeredBefore) expect(debits).toContain(orderId);
    expect(debits).toHaveLength(ORDERS);
    expect(new Set(debits)).toEqual(new Set(attempts.map((attempt) => attempt.orderId)));
    const balance = await call(url, 'GET', '/v1/partner/balance', partner.key);
    expect(balance.body.available).toBe((CREDIT - ORDERS * AMOUNT).toFixed(2));
    expect((await verifyUntilClean(url)).body).toMatchObject({ ok: true, breaches: [], in_progress: [] });
  });
});
