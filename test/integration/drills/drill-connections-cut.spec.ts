import { Client } from 'pg';
import {
  DrillAttempt,
  DrillPartner,
  call,
  debitedOrders,
  drillPartner,
  resendUntilAccepted,
  sendAll,
  verifyUntilClean,
} from '../../support/drill-load';
import { createTestDatabase, TestDatabase } from '../../support/postgres-test-database';
import { ServiceProcess } from '../../support/service-process';
import { SANDBOX_PHONES, TEST_ADMIN_TOKEN, TEST_KEY_SECRET } from '../../support/test-service';
import { SERVICE_START_TIMEOUT_MS } from '../../support/timeouts';

/*
 * Failure drill: the service's database connections are cut mid-load. The service runs as its own
 * process on PostgreSQL; while concurrent topups run, every session it holds on its database
 * (found by application_name and database) is ended with pg_terminate_backend, four times. Each
 * request answers 200 or 503, never something half done: every key is then sent again until it
 * gets its 200, every order answered 200 is kept, each key debited once, and verify passes.
 */
jest.setTimeout(SERVICE_START_TIMEOUT_MS * 2);

const ORDERS = 80;
const AMOUNT = 10;
const CREDIT = 1000;
const CUTS_AFTER = [10, 25, 40, 55];

async function cutConnections(adminUrl: string, database: string): Promise<number> {
  const client = new Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const result = await client.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND application_name = 'partner-recharge-service'`,
      [database],
    );
    return result.rowCount ?? 0;
  } finally {
    await client.end();
  }
}

describe('failure drill: the service database connections cut mid-load', () => {
  let database: TestDatabase;
  let service: ServiceProcess | null = null;

  beforeAll(async () => {
    database = await createTestDatabase('drill_cut');
  });
  afterAll(async () => {
    await service?.stop();
    await database.drop();
  });

  it('answers 200 or 503, keeps every 200, debits each key once, and verify passes', async () => {
    service = await ServiceProcess.start(
      'drill-connections-cut',
      {
        EVENT_STORE: 'postgres',
        DATABASE_URL: database.connectionString,
        API_KEY_SECRET: TEST_KEY_SECRET,
        ADMIN_TOKEN: TEST_ADMIN_TOKEN,
        LOG_LEVEL: 'error',
      },
      SERVICE_START_TIMEOUT_MS,
    );
    const url = service.url;
    const partner: DrillPartner = await drillPartner(url, 'Connections Cut');
    const attempts: DrillAttempt[] = Array.from({ length: ORDERS }, (_, i) => ({
      partner,
      idempotencyKey: `drill-cut-${String(i).padStart(4, '0')}`,
      body: { operator_id: 101, phone: SANDBOX_PHONES.IN('0001'), amount: AMOUNT },
      status: null,
      orderId: null,
    }));
    const databaseName = new URL(database.connectionString).pathname.slice(1);
    const adminUrl = new URL(database.connectionString);
    adminUrl.pathname = '/postgres';
    const cuts: Promise<number>[] = [];
    await sendAll(url, attempts, 12, (answered) => {
      if (CUTS_AFTER.includes(answered)) cuts.push(cutConnections(adminUrl.toString(), databaseName));
    });
    const ended = await Promise.all(cuts);
    expect(ended.reduce((sum, count) => sum + count, 0)).toBeGreaterThan(0);
    expect(attempts.filter((attempt) => attempt.status !== 200 && attempt.status !== 503)).toEqual([]);
    const answeredBefore = attempts.filter((attempt) => attempt.status === 200).map((attempt) => attempt.orderId);
    expect(answeredBefore.length).toBeGreaterThan(0);

    await resendUntilAccepted(url, attempts);
    const debits = await debitedOrders(url, partner);
    for (const orderId of answeredBefore) expect(debits).toContain(orderId);
    expect(debits).toHaveLength(ORDERS);
    expect(new Set(debits)).toEqual(new Set(attempts.map((attempt) => attempt.orderId)));
    const balance = await call(url, 'GET', '/v1/partner/balance', partner.key);
    expect(balance.body.available).toBe((CREDIT - ORDERS * AMOUNT).toFixed(2));
    expect((await verifyUntilClean(url)).body).toMatchObject({ ok: true, breaches: [], in_progress: [] });
    expect(service.running).toBe(true);
  });
});
