import { randomBytes, randomInt } from 'node:crypto';
import { HttpAnswer, TEST_ADMIN_TOKEN, TestService } from '../../support/test-service';

/** A fresh address per test and run (198.18.0.0/15, for benchmarks), so counts left in Redis by an earlier run never apply. */
const someAddress = (): string => `198.${18 + randomInt(2)}.${randomInt(256)}.${randomInt(1, 255)}`;

/** A well-formed sandbox key that no partner has. */
const unknownKey = (): string => `svc_test_${randomBytes(24).toString('base64url')}`;

const expectError = (answer: HttpAnswer, status: number, code: string): void => {
  expect({ status: answer.status, body: answer.body }).toEqual({
    status,
    body: { error: code, detail: expect.any(String) },
  });
};

describe.each([
  ['in memory, beside the rate limit in PostgreSQL', {}],
  ['in Redis', { RATE_LIMIT_STORE: 'redis', REDIS_URL: 'redis://127.0.0.1:6379' }],
])('failed authentications throttled per source address (counted %s)', (_storeName, env) => {
  let service: TestService;

  beforeAll(async () => {
    // Behind a trusted proxy, so that X-Forwarded-For gives each caller its own address.
    service = await TestService.start({
      store: 'postgres',
      env: { ...env, TRUSTED_PROXIES: '127.0.0.1', AUTH_FAILURES_PER_MINUTE: '5' },
    });
  });
  afterAll(async () => {
    await service.close();
  });

  const balanceFrom = (address: string, key: string) =>
    service.partner('GET', '/balance', key, undefined, { 'x-forwarded-for': address });
  const adminFrom = (address: string, token: string) =>
    service.adminAs(token, 'GET', '/partners', undefined, { 'x-forwarded-for': address });

  it('an address presenting unknown keys gets 401 five times, then 429 with Retry-After, even for a good key', async () => {
    const { sandboxKey } = await service.createPartner('IN', 'Same Address');
    const address = someAddress();
    for (let attempt = 0; attempt < 5; attempt++)
      expectError(await balanceFrom(address, unknownKey()), 401, 'invalid_api_key');
    const throttled = await balanceFrom(address, unknownKey());
    expectError(throttled, 429, 'rate_limit_exceeded');
    expect(throttled.headers.get('retry-after')).toBe('12');
    // Refused before the key is looked at: from this address, a good key waits too.
    expectError(await balanceFrom(address, sandboxKey), 429, 'rate_limit_exceeded');
    // Malformed keys count alike.
    await service.advance(12_000);
    expectError(await balanceFrom(address, 'not-a-key'), 401, 'invalid_api_key');
    expectError(await balanceFrom(address, unknownKey()), 429, 'rate_limit_exceeded');
    await service.advance(12_000);
    expect((await balanceFrom(address, sandboxKey)).status).toBe(200);
  });

  it('a known partner keeps being served while another address floods bad keys', async () => {
    const { sandboxKey } = await service.createPartner('IN', 'Keeps Working');
    const flooder = someAddress();
    const partnerAddress = someAddress();
    expectError(await balanceFrom(flooder, unknownKey()), 401, 'invalid_api_key');
    // Once an address has failed, each of its attempts takes a failure in advance: a concurrent
    // flood gets no more lookups than it has failures left.
    const [flood, served] = await Promise.all([
      Promise.all(Array.from({ length: 60 }, () => balanceFrom(flooder, unknownKey()))),
      Promise.all(Array.from({ length: 20 }, () => balanceFrom(partnerAddress, sandboxKey))),
    ]);
    expect(served.map((answer) => answer.status)).toEqual(Array.from({ length: 20 }, () => 200));
    const statuses = flood.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 401)).toHaveLength(4);
    expect(statuses.filter((status) => status === 429)).toHaveLength(56);
    // The partner's own successes count nothing against its address.
    for (let attempt = 0; attempt < 5; attempt++)
      expectError(await balanceFrom(partnerAddress, unknownKey()), 401, 'invalid_api_key');
  });

  it('an address presenting wrong back-office tokens gets 401 five times, then 429; operators elsewhere are let in', async () => {
    const address = someAddress();
    for (let attempt = 0; attempt < 5; attempt++)
      expectError(await adminFrom(address, `wrong-${attempt}`), 401, 'invalid_admin_token');
    const throttled = await adminFrom(address, 'wrong-again');
    expectError(throttled, 429, 'rate_limit_exceeded');
    expect(throttled.headers.get('retry-after')).toBe('12');
    expectError(await adminFrom(address, TEST_ADMIN_TOKEN), 429, 'rate_limit_exceeded');
    expect((await adminFrom(someAddress(), TEST_ADMIN_TOKEN)).status).toBe(200);
  });

  it('a good credential counts nothing, even from an address that failed: what was taken for it is given back', async () => {
    const address = someAddress();
    for (let attempt = 0; attempt < 4; attempt++)
      expectError(await adminFrom(address, `wrong-${attempt}`), 401, 'invalid_admin_token');
    for (let request = 0; request < 12; request++)
      expect((await adminFrom(address, TEST_ADMIN_TOKEN)).status).toBe(200);
    expectError(await adminFrom(address, 'wrong-last'), 401, 'invalid_admin_token');
    expectError(await adminFrom(address, 'wrong-again'), 429, 'rate_limit_exceeded');
  });
});
