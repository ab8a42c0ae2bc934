import { createTestDatabase, TestDatabase } from '../../support/postgres-test-database';
import { runCli } from '../../support/run-cli';
import { TEST_ADMIN_TOKEN, TestService } from '../../support/test-service';
import { SERVICE_START_TIMEOUT_MS } from '../../support/timeouts';

const A = 'rotation-secret-a-0123456789abcdef0123456789';
const B = 'rotation-secret-b-0123456789abcdef0123456789';

/** Each phase is the service restarted on the same database with another API_KEY_SECRET(S). */
const underA = { API_KEY_SECRET: A };
const underRing = { API_KEY_SECRET: '', API_KEY_SECRETS: `${B},${A}` };
const underB = { API_KEY_SECRET: B };

describe('rotating the server secret: under A, then the ring B,A with a re-seal, then B alone', () => {
  let database: TestDatabase;
  let service: TestService | null = null;
  let used: { partnerId: string; sandboxKey: string };
  let unused: { partnerId: string; sandboxKey: string };
  let operatorToken: string;

  const start = async (env: Record<string, string>): Promise<TestService> => {
    await service?.close();
    service = await TestService.start({ store: 'postgres', databaseUrl: database.connectionString, env });
    return service;
  };
  const reseal = async (running: TestService) => {
    const run = await runCli(['secrets', 'reseal'], { SERVICE_URL: running.url, ADMIN_TOKEN: TEST_ADMIN_TOKEN });
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
    return JSON.parse(run.stdout) as Record<string, unknown>;
  };
  const balanceStatus = async (running: TestService, key: string) =>
    (await running.partner('GET', '/balance', key)).status;
  const operatorStatus = async (running: TestService) =>
    (await running.adminAs(operatorToken, 'GET', '/partners')).status;

  beforeAll(async () => {
    database = await createTestDatabase('secret_rotation');
  });
  afterAll(async () => {
    await service?.close();
    await database?.drop();
  });

  it(
    'under A: keys, a back-office token and a webhook secret are made',
    async () => {
      const running = await start(underA);
      used = await running.createPartner('IN', 'Used During Rotation');
      unused = await running.createPartner('IN', 'Idle During Rotation');
      const configured = await running.admin('PATCH', `/partners/${used.partnerId}/settings`, {
        environment: 'sandbox',
        webhook_url: 'https://hooks.example.com/rotation',
      });
      expect(configured.status).toBe(200);
      operatorToken = (await running.createOperator('rotation.checker', 'operator')).token;
      expect(await balanceStatus(running, used.sandboxKey)).toBe(200);
      expect(await operatorStatus(running)).toBe(200);
    },
    SERVICE_START_TIMEOUT_MS,
  );

  it(
    'under the ring B,A: what A made keeps working, is hashed again under B at its use, and the re-seal moves the webhook secret to B',
    async () => {
      const running = await start(underRing);
      expect(await balanceStatus(running, used.sandboxKey)).toBe(200);
      expect(await operatorStatus(running)).toBe(200);
      // A key issued now is hashed under B.
      const fresh = await running.createPartner('IN', 'Made Under B');
      expect(await balanceStatus(running, fresh.sandboxKey)).toBe(200);

      expect(await reseal(running)).toEqual({
        environments_resealed: 1,
        secrets_resealed: 1,
        secrets_current: 0,
        secrets_unreadable: [],
      });
      // Run again, nothing is left to do.
      expect(await reseal(running)).toMatchObject({ environments_resealed: 0, secrets_current: 1 });
      await running.settle();
    },
    SERVICE_START_TIMEOUT_MS,
  );

  it(
    'under B alone: the key and token used during the rotation work, the webhook secret opens, and a key never used since fails',
    async () => {
      const running = await start(underB);
      expect(await balanceStatus(running, used.sandboxKey)).toBe(200);
      expect(await operatorStatus(running)).toBe(200);
      expect(await reseal(running)).toEqual({
        environments_resealed: 0,
        secrets_resealed: 0,
        secrets_current: 1,
        secrets_unreadable: [],
      });
      // Never presented while the ring held A: still hashed under A, which is gone.
      const stale = await running.partner('GET', '/balance', unused.sandboxKey);
      expect({ status: stale.status, body: stale.body }).toEqual({
        status: 401,
        body: { error: 'invalid_api_key', detail: expect.any(String) },
      });
    },
    SERVICE_START_TIMEOUT_MS,
  );
});
