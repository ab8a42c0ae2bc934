import { randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { loadConfig } from '../../../src/config/load-config';
import { ManualClock } from '../../support/manual-clock';
import { sqlOf } from '../../support/ledger';
import { createTestDatabase, TestDatabase } from '../../support/postgres-test-database';
import { HttpAnswer, TEST_ADMIN_TOKEN, TestService, TestServiceOptions } from '../../support/test-service';
import { runCli } from '../../support/run-cli';

/** 30 seconds into a minute: where fixed windows ended in 30 s; the token buckets take no notice of it. */
const HALF_MINUTE_IN = new Date('2026-04-01T08:15:30.000Z');

const expectError = (answer: HttpAnswer, status: number, code: string): void => {
  expect({ status: answer.status, body: answer.body }).toEqual({
    status,
    body: { error: code, detail: expect.any(String) },
  });
};

const configure = (service: TestService, partnerId: string, body: Record<string, unknown>): Promise<HttpAnswer> =>
  service.admin('PATCH', `/partners/${partnerId}/settings`, { environment: 'sandbox', ...body });

/** GET /v1/partner/balance from a chosen local address (the socket's source) to a chosen service address. */
function balanceFrom(
  service: TestService,
  key: string,
  options: { connectTo?: string; localAddress?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      {
        host: options.connectTo ?? '127.0.0.1',
        port: service.port,
        localAddress: options.localAddress,
        path: '/v1/partner/balance',
        method: 'GET',
        headers: { authorization: `Bearer ${key}`, ...options.headers },
        agent: false,
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, body: text ? JSON.parse(text) : undefined }),
        );
      },
    );
    outgoing.on('error', reject);
    outgoing.end();
  });
}

describe('IP allowlist', () => {
  let service: TestService;

  beforeAll(async () => {
    service = await TestService.start({ store: 'postgres' });
  });
  afterAll(async () => {
    await service.close();
  });

  const partnerAllowing = async (allowlist: string[]): Promise<string> => {
    const { partnerId, sandboxKey } = await service.createPartner('IN', 'Allowlist Partner');
    const configured = await configure(service, partnerId, { ip_allowlist: allowlist });
    expect(configured.status).toBe(200);
    return sandboxKey;
  };
  const balance = (key: string, headers?: Record<string, string>) =>
    service.partner('GET', '/balance', key, undefined, headers);

  it('without an allowlist every address may use the key', async () => {
    const { sandboxKey } = await service.createPartner('IN', 'Open Partner');
    expect((await balance(sandboxKey)).status).toBe(200);
  });

  it.each([
    ['the exact IPv4 address', ['127.0.0.1']],
    ['an IPv4 CIDR range that contains it', ['127.0.0.0/8']],
    ['one of several entries', ['203.0.113.0/24', '2001:db8::/32', '127.0.0.1/32']],
  ])('a caller at 127.0.0.1 is let in by %s', async (_, allowlist) => {
    expect((await balance(await partnerAllowing(allowlist))).status).toBe(200);
  });

  it.each([
    ['another IPv4 address', ['127.0.0.2']],
    ['an IPv4 range that does not contain it', ['10.0.0.0/8', '192.168.0.0/16']],
    ['an IPv6 range', ['2001:db8::/32']],
  ])(
    'a caller at 127.0.0.1 is refused with 403 ip_not_allowed when the allowlist holds only %s',
    async (_, allowlist) => {
      const key = await partnerAllowing(allowlist);
      expectError(await balance(key), 403, 'ip_not_allowed');
      expectError(await service.partner('GET', '/operators', key), 403, 'ip_not_allowed');
      expectError(
        await service.topup(key, { operator_id: 101, phone: '+919876540001', amount: 100 }, `ip-${randomUUID()}`),
        403,
        'ip_not_allowed',
      );
    },
  );

  it('the allowlist narrows only the environment it was set for', async () => {
    const { partnerId, sandboxKey } = await service.createPartner('IN', 'Live Only Allowlist');
    expect(
      (
        await service.admin('PATCH', `/partners/${partnerId}/settings`, {
          environment: 'live',
          ip_allowlist: ['10.0.0.1'],
        })
      ).status,
    ).toBe(200);
    expect((await balance(sandboxKey)).status).toBe(200);
  });

  it('a wrong key is still 401, whatever the address', async () => {
    expectError(await balance(`svc_test_${'q'.repeat(32)}`), 401, 'invalid_api_key');
  });

  it('an allowlist entry that is not an IP address or CIDR range is refused with 400 and nothing changes', async () => {
    const { partnerId, sandboxKey } = await service.createPartner('IN', 'Typo Partner');
    for (const entry of ['10.0.0.0/33', '300.1.1.1', 'example.com', '::1/129', '10.0.0.0/8/1']) {
      expectError(await configure(service, partnerId, { ip_allowlist: [entry] }), 400, 'validation_failed');
    }
    expect((await service.partner('GET', '/settings', sandboxKey)).body.ip_allowlist).toEqual([]);
  });

  it('a partner sets its own allowlist and can lock itself out, which an operator can undo', async () => {
    const { partnerId, sandboxKey } = await service.createPartner('IN', 'Self Lockout');
    const changed = await service.partner('PATCH', '/settings', sandboxKey, { ip_allowlist: ['198.51.100.0/24'] });
    expect(changed.status).toBe(200);
    expect(changed.body.ip_allowlist).toEqual(['198.51.100.0/24']);
    expectError(await balance(sandboxKey), 403, 'ip_not_allowed');
    expect((await configure(service, partnerId, { ip_allowlist: [] })).status).toBe(200);
    expect((await balance(sandboxKey)).status).toBe(200);
  });

  describe('X-Forwarded-For', () => {
    it('a forged X-Forwarded-For from a caller that is not a trusted proxy is ignored', async () => {
      const key = await partnerAllowing(['203.0.113.7']);
      expectError(await balance(key, { 'x-forwarded-for': '203.0.113.7' }), 403, 'ip_not_allowed');
      expectError(
        await balance(key, {
          'x-forwarded-for': '203.0.113.7, 203.0.113.7',
          'x-real-ip': '203.0.113.7',
          forwarded: 'for=203.0.113.7',
        }),
        403,
        'ip_not_allowed',
      );
    });

    it('a forged X-Forwarded-For cannot take away an allowed caller’s own address either', async () => {
      const key = await partnerAllowing(['127.0.0.1']);
      expect((await balance(key, { 'x-forwarded-for': '198.51.100.99' })).status).toBe(200);
    });
  });
});

describe('IP allowlist behind a trusted proxy (TRUSTED_PROXIES=127.0.0.1)', () => {
  let service: TestService;

  beforeAll(async () => {
    service = await TestService.start({ store: 'postgres', env: { TRUSTED_PROXIES: '127.0.0.1' } });
  });
  afterAll(async () => {
    await service.close();
  });

  const partnerAllowing = async (allowlist: string[]): Promise<string> => {
    const { partnerId, sandboxKey } = await service.createPartner('IN', 'Proxied Partner');
    expect((await configure(service, partnerId, { ip_allowlist: allowlist })).status).toBe(200);
    return sandboxKey;
  };
  const balance = (key: string, headers?: Record<string, string>) =>
    service.partner('GET', '/balance', key, undefined, headers);

  it('the client address the trusted proxy reports is the one checked', async () => {
    const key = await partnerAllowing(['203.0.113.7']);
    expect((await balance(key, { 'x-forwarded-for': '203.0.113.7' })).status).toBe(200);
    expectError(await balance(key, { 'x-forwarded-for': '198.51.100.1' }), 403, 'ip_not_allowed');
    // Without the header the caller is the proxy itself, which is not on the list.
    expectError(await balance(key), 403, 'ip_not_allowed');
  });

  it('only the hop the trusted proxy added is believed; what the client wrote before it is not', async () => {
    const key = await partnerAllowing(['203.0.113.7']);
    // The client forged "203.0.113.7"; the proxy appended the real client address 198.51.100.1.
    expectError(await balance(key, { 'x-forwarded-for': '203.0.113.7, 198.51.100.1' }), 403, 'ip_not_allowed');
  });

  it('an IPv6 client address reported by the trusted proxy is checked against IPv6 ranges', async () => {
    const key = await partnerAllowing(['2001:db8:1::/48']);
    expect((await balance(key, { 'x-forwarded-for': '2001:db8:1::42' })).status).toBe(200);
    expectError(await balance(key, { 'x-forwarded-for': '2001:db8:2::42' }), 403, 'ip_not_allowed');
  });
});

describe('the trusted-proxy setting', () => {
  const base = { EVENT_STORE: 'embedded', API_KEY_SECRET: 'k'.repeat(32), ADMIN_TOKEN: 'a'.repeat(32) };

  it('takes proxy addresses and CIDR ranges, IPv4 and IPv6', () => {
    expect(
      loadConfig({ ...base, TRUSTED_PROXIES: '10.0.0.5, 172.30.240.0/24,fd00::/8,loopback' }).trustedProxies,
    ).toEqual(['10.0.0.5', '172.30.240.0/24', 'fd00::/8', 'loopback']);
    expect(loadConfig(base).trustedProxies).toEqual([]);
  });

  it.each(['1', 'proxy.internal', '10.0.0.0/33', '10.0.0.1/8/1'])(
    'refuses %s at startup, naming the variable',
    (value) => {
      expect(() => loadConfig({ ...base, TRUSTED_PROXIES: value })).toThrow(/TRUSTED_PROXIES/);
    },
  );
});

describe('IP allowlist for IPv6 callers (service listening on ::)', () => {
  let service: TestService;

  beforeAll(async () => {
    service = await TestService.start({ store: 'postgres', host: '::' });
  });
  afterAll(async () => {
    await service.close();
  });

  const partnerAllowing = async (allowlist: string[]): Promise<string> => {
    const { partnerId, sandboxKey } = await service.createPartner('IN', 'IPv6 Partner');
    expect((await configure(service, partnerId, { ip_allowlist: allowlist })).status).toBe(200);
    return sandboxKey;
  };
  const fromV6 = (key: string) => balanceFrom(service, key, { connectTo: '::1', localAddress: '::1' });
  const fromV4 = (key: string) => balanceFrom(service, key, { connectTo: '127.0.0.1', localAddress: '127.0.0.1' });

  it('a caller at ::1 is let in by the exact IPv6 address and by a CIDR range containing it', async () => {
    expect((await fromV6(await partnerAllowing(['::1']))).status).toBe(200);
    expect((await fromV6(await partnerAllowing(['::/64']))).status).toBe(200);
    expect((await fromV6(await partnerAllowing(['0:0:0:0:0:0:0:1/128']))).status).toBe(200);
  });

  it('a caller at ::1 is refused when only other IPv6 ranges or IPv4 addresses are allowed', async () => {
    const onlyOthers = await partnerAllowing(['fd00::/8', '2001:db8::/32']);
    const v6 = await fromV6(onlyOthers);
    expect(v6).toEqual({ status: 403, body: { error: 'ip_not_allowed', detail: expect.any(String) } });
    expect((await fromV6(await partnerAllowing(['127.0.0.1']))).status).toBe(403);
  });

  it('an IPv4 caller arriving as an IPv4-mapped IPv6 address matches IPv4 entries, and not IPv6 ones', async () => {
    expect((await fromV4(await partnerAllowing(['127.0.0.1']))).status).toBe(200);
    expect((await fromV4(await partnerAllowing(['127.0.0.0/24']))).status).toBe(200);
    expect((await fromV4(await partnerAllowing(['::ffff:127.0.0.1']))).status).toBe(200);
    expect((await fromV4(await partnerAllowing(['::1']))).status).toBe(403);
  });
});

describe('rate limit', () => {
  let service: TestService;

  beforeAll(async () => {
    service = await TestService.start({ store: 'postgres', clock: new ManualClock(HALF_MINUTE_IN) });
  });
  afterAll(async () => {
    await service.close();
  });

  it('by default a key may make 60 requests a minute; the 61st is refused', async () => {
    const { sandboxKey } = await service.createPartner('IN', 'Default Limit');
    for (let request = 1; request <= 60; request++) {
      const answer = await service.partner('GET', '/balance', sandboxKey);
      expect([answer.status, answer.headers.get('ratelimit-remaining')]).toEqual([200, String(60 - request)]);
    }
    const refused = await service.partner('GET', '/balance', sandboxKey);
    expectError(refused, 429, 'rate_limit_exceeded');
    expect(refused.headers.get('ratelimit-limit')).toBe('60');
  });

  it('with a limit of 5 set from the CLI, the 6th request in a minute gets 429 with Retry-After and RateLimit headers; one comes back every 12 s, the whole limit a minute later', async () => {
    const { partnerId, sandboxKey } = await service.createPartner('IN', 'Five Per Minute');
    const cli = await runCli(['partner', 'configure', partnerId, '--environment', 'sandbox', '--rate-limit', '5'], {
      SERVICE_URL: service.url,
      ADMIN_TOKEN: TEST_ADMIN_TOKEN,
    });
    expect(cli.code).toBe(0);
    expect(JSON.parse(cli.stdout)).toMatchObject({ rate_limit_per_minute: 5 });

    for (let request = 1; request <= 5; request++) {
      const answer = await service.partner('GET', '/balance', sandboxKey);
      expect(answer.status).toBe(200);
      expect({
        limit: answer.headers.get('ratelimit-limit'),
        remaining: answer.headers.get('ratelimit-remaining'),
        reset: answer.headers.get('ratelimit-reset'),
        retryAfter: answer.headers.get('retry-after'),
      }).toEqual({ limit: '5', remaining: String(5 - request), reset: String(12 * request), retryAfter: null });
    }
    const refused = await service.partner('GET', '/balance', sandboxKey);
    expectError(refused, 429, 'rate_limit_exceeded');
    expect({
      retryAfter: refused.headers.get('retry-after'),
      limit: refused.headers.get('ratelimit-limit'),
      remaining: refused.headers.get('ratelimit-remaining'),
      reset: refused.headers.get('ratelimit-reset'),
    }).toEqual({ retryAfter: '12', limit: '5', remaining: '0', reset: '12' });
    // Every route of the key counts and is refused alike, money-moving ones included.
    expectError(
      await service.topup(sandboxKey, { operator_id: 101, phone: '+919876540001', amount: 100 }, `rl-${randomUUID()}`),
      429,
      'rate_limit_exceeded',
    );

    await service.advance(10_000);
    const stillRefused = await service.partner('GET', '/balance', sandboxKey);
    expectError(stillRefused, 429, 'rate_limit_exceeded');
    expect(stillRefused.headers.get('retry-after')).toBe('2');

    await service.advance(50_000);
    const nextMinute = await service.partner('GET', '/balance', sandboxKey);
    expect(nextMinute.status).toBe(200);
    expect(nextMinute.headers.get('ratelimit-remaining')).toBe('4');
  });

  it('the limit is per partner: another partner’s key is not slowed down', async () => {
    const busy = await service.createPartner('IN', 'Busy');
    const quiet = await service.createPartner('IN', 'Quiet');
    expect((await configure(service, busy.partnerId, { rate_limit: 1 })).status).toBe(200);
    expect((await service.partner('GET', '/balance', busy.sandboxKey)).status).toBe(200);
    expect((await service.partner('GET', '/balance', busy.sandboxKey)).status).toBe(429);
    expect((await service.partner('GET', '/balance', quiet.sandboxKey)).status).toBe(200);
  });

  /** A key with a limit of 3 that has not been counted this minute: 3 answers (2, 1, 0 remaining), then 429. */
  const expectWholeBudgetOfThree = async (key: string): Promise<void> => {
    const remaining: (string | null)[] = [];
    for (let request = 0; request < 3; request++) {
      const answer = await service.partner('GET', '/balance', key);
      expect(answer.status).toBe(200);
      remaining.push(answer.headers.get('ratelimit-remaining'));
    }
    expect(remaining).toEqual(['2', '1', '0']);
    expectError(await service.partner('GET', '/balance', key), 429, 'rate_limit_exceeded');
  };

  it('requests refused for KYC (403) use none of the key’s budget: once approved again, the live key has its whole minute', async () => {
    const { partnerId } = await service.createPartner('IN', 'KYC Budget');
    const approved = await service.admin('POST', `/partners/${partnerId}/kyc`, { status: 'approved' });
    const liveKey: string = approved.body.live_api_key;
    expect(
      (await service.admin('PATCH', `/partners/${partnerId}/settings`, { environment: 'live', rate_limit: 3 })).status,
    ).toBe(200);
    expect((await service.admin('POST', `/partners/${partnerId}/kyc`, { status: 'suspended' })).status).toBe(200);
    for (let request = 0; request < 5; request++)
      expectError(await service.partner('GET', '/balance', liveKey), 403, 'kyc_required');

    expect((await service.admin('POST', `/partners/${partnerId}/kyc`, { status: 'approved' })).status).toBe(200);
    await expectWholeBudgetOfThree(liveKey);
  });

  it('requests refused for their address (403) use none of the budget either', async () => {
    const { partnerId, sandboxKey } = await service.createPartner('IN', 'Address Budget');
    expect((await configure(service, partnerId, { rate_limit: 3, ip_allowlist: ['192.0.2.1'] })).status).toBe(200);
    for (let request = 0; request < 5; request++)
      expectError(await service.partner('GET', '/balance', sandboxKey), 403, 'ip_not_allowed');

    expect((await configure(service, partnerId, { ip_allowlist: ['127.0.0.0/8', '::1'] })).status).toBe(200);
    await expectWholeBudgetOfThree(sandboxKey);
  });

  it.each([
    ['no IP allowlist', []],
    ['an IP allowlist that admits the caller', ['127.0.0.0/8', '::1']],
  ])(
    'a burst of concurrent requests from a partner with %s: exactly the limit gets through, each with its own remaining count',
    async (_, allowlist) => {
      const { partnerId, sandboxKey } = await service.createPartner('IN', 'Burst');
      expect((await configure(service, partnerId, { rate_limit: 10, ip_allowlist: allowlist })).status).toBe(200);
      const burst = await Promise.all(Array.from({ length: 25 }, () => service.partner('GET', '/balance', sandboxKey)));
      const admitted = burst.filter((answer) => answer.status === 200);
      expect(admitted.map((answer) => Number(answer.headers.get('ratelimit-remaining'))).sort((x, y) => x - y)).toEqual(
        [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
      );
      expect(burst.filter((answer) => answer.status === 429)).toHaveLength(15);
    },
  );

  it('a regenerated key shares its environment’s count: what is left of the minute, then a whole one', async () => {
    const { partnerId, sandboxKey } = await service.createPartner('IN', 'Regenerating');
    expect((await configure(service, partnerId, { rate_limit: 1 })).status).toBe(200);
    expect((await service.partner('GET', '/balance', sandboxKey)).status).toBe(200);
    expect((await service.partner('GET', '/balance', sandboxKey)).status).toBe(429);
    const regenerated = await service.admin('POST', `/partners/${partnerId}/keys/regenerate`, {
      environment: 'sandbox',
    });
    expectError(await service.partner('GET', '/balance', regenerated.body.api_key), 429, 'rate_limit_exceeded');
    await service.advance(60_000);
    expect((await service.partner('GET', '/balance', regenerated.body.api_key)).status).toBe(200);
  });

  describe('with restricted keys', () => {
    const createKey = (mainKey: string, body: Record<string, unknown>) =>
      service.partner('POST', '/keys', mainKey, { label: 'agent', scope: 'read_only', ...body });

    it.each([
      ['no IP allowlist', []],
      ['an IP allowlist that admits the caller', ['127.0.0.0/8', '::1']],
    ])(
      'the limit holds across all the partner’s keys, with %s: many restricted keys do not multiply it',
      async (_, allowlist) => {
        const { partnerId, sandboxKey } = await service.createPartner('IN', 'Many Keys');
        const keys: string[] = [];
        for (let index = 0; index < 10; index++) {
          const created = await createKey(sandboxKey, { label: `agent ${index}` });
          expect(created.status).toBe(201);
          keys.push(created.body.api_key);
        }
        await service.advance(60_000);
        expect((await configure(service, partnerId, { rate_limit: 6, ip_allowlist: allowlist })).status).toBe(200);
        const answers = await Promise.all(
          [sandboxKey, ...keys].flatMap((key) => [
            service.partner('GET', '/balance', key),
            service.partner('GET', '/balance', key),
          ]),
        );
        expect(answers.filter((answer) => answer.status === 200)).toHaveLength(6);
        const refused = answers.filter((answer) => answer.status === 429);
        expect(refused).toHaveLength(16);
        for (const answer of refused) {
          expectError(answer, 429, 'rate_limit_exceeded');
          expect(answer.headers.get('retry-after')).toBe('10');
          expect(answer.headers.get('ratelimit-limit')).toBe('6');
        }
      },
    );

    it('a restricted key may have a lower limit of its own; the main key keeps the rest of the environment’s', async () => {
      const { partnerId, sandboxKey } = await service.createPartner('IN', 'Own Limit');
      expect((await configure(service, partnerId, { rate_limit: 5 })).status).toBe(200);
      const created = await createKey(sandboxKey, { rate_limit: 2 });
      expect(created.status).toBe(201);
      expect(created.body.rate_limit).toBe(2);
      await service.advance(60_000);
      const agent = created.body.api_key;
      const first = await service.partner('GET', '/balance', agent);
      expect([first.status, first.headers.get('ratelimit-limit'), first.headers.get('ratelimit-remaining')]).toEqual([
        200,
        '2',
        '1',
      ]);
      expect((await service.partner('GET', '/balance', agent)).status).toBe(200);
      const refused = await service.partner('GET', '/balance', agent);
      expectError(refused, 429, 'rate_limit_exceeded');
      expect(refused.body.detail).toMatch(/restricted key/);
      // The environment counted the agent's three requests too: two are left for the main key.
      expect((await service.partner('GET', '/balance', sandboxKey)).headers.get('ratelimit-remaining')).toBe('1');
      expect((await service.partner('GET', '/balance', sandboxKey)).status).toBe(200);
      expectError(await service.partner('GET', '/balance', sandboxKey), 429, 'rate_limit_exceeded');
    });

    it('never a higher one: a limit above the environment’s is refused, and a lowered environment limit binds the key too', async () => {
      const { partnerId, sandboxKey } = await service.createPartner('IN', 'Higher Limit');
      expectError(await createKey(sandboxKey, { rate_limit: 61 }), 400, 'validation_failed');
      expectError(await createKey(sandboxKey, { rate_limit: 0 }), 400, 'validation_failed');
      expectError(await createKey(sandboxKey, { rate_limit: '10' }), 400, 'validation_failed');
      const created = await createKey(sandboxKey, { rate_limit: 50 });
      expect(created.status).toBe(201);
      expect((await configure(service, partnerId, { rate_limit: 2 })).status).toBe(200);
      await service.advance(60_000);
      const first = await service.partner('GET', '/balance', created.body.api_key);
      expect(first.headers.get('ratelimit-limit')).toBe('2');
      expect((await service.partner('GET', '/balance', created.body.api_key)).status).toBe(200);
      expectError(await service.partner('GET', '/balance', created.body.api_key), 429, 'rate_limit_exceeded');
    });
  });

  it('a requests-per-minute limit outside 1..100000 is refused with 400', async () => {
    const { partnerId } = await service.createPartner('IN', 'Bad Limit');
    for (const rate_limit of [0, -1, 100_001, 2.5]) {
      expectError(await configure(service, partnerId, { rate_limit }), 400, 'validation_failed');
    }
  });
});

describe.each([
  ['PostgreSQL', {}],
  ['Redis', { RATE_LIMIT_STORE: 'redis', REDIS_URL: 'redis://127.0.0.1:6379' }],
])('a rate limit shared by two processes (counted in %s)', (storeName, env) => {
  let database: TestDatabase;
  let first: TestService;
  let second: TestService;

  beforeAll(async () => {
    database = await createTestDatabase('ratelimit');
    const options = (): TestServiceOptions => ({
      store: 'postgres',
      databaseUrl: database.connectionString,
      clock: new ManualClock(HALF_MINUTE_IN),
      env,
    });
    first = await TestService.start(options());
    second = await TestService.start(options());
  });
  afterAll(async () => {
    await first?.close();
    await second?.close();
    await database?.drop();
  });

  it('two processes sharing one store let the key make 5 requests in total, not 5 each', async () => {
    const { partnerId, sandboxKey } = await first.createPartner('IN', `Shared Limit ${storeName} ${randomUUID()}`);
    expect((await configure(first, partnerId, { rate_limit: 5 })).status).toBe(200);

    const statuses: number[] = [];
    const remaining: (string | null)[] = [];
    for (let request = 0; request < 5; request++) {
      const answer = await (request % 2 === 0 ? first : second).partner('GET', '/balance', sandboxKey);
      statuses.push(answer.status);
      remaining.push(answer.headers.get('ratelimit-remaining'));
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200]);
    expect(remaining).toEqual(['4', '3', '2', '1', '0']);
    expectError(await first.partner('GET', '/balance', sandboxKey), 429, 'rate_limit_exceeded');
    expectError(await second.partner('GET', '/balance', sandboxKey), 429, 'rate_limit_exceeded');

    // Concurrent requests to both processes in the next minute: still exactly 5 get through.
    first.clock.advance(60_000);
    second.clock.advance(60_000);
    const burst = await Promise.all(
      Array.from({ length: 12 }, (_, index) =>
        (index % 2 === 0 ? first : second).partner('GET', '/balance', sandboxKey),
      ),
    );
    expect(burst.filter((answer) => answer.status === 200)).toHaveLength(5);
    expect(burst.filter((answer) => answer.status === 429)).toHaveLength(7);

    const counted = await sqlOf(first).query<{ n: number }>('SELECT count(*)::int AS n FROM rate_limit_buckets');
    expect(counted[0].n > 0).toBe(storeName === 'PostgreSQL');
  });

  it('the keys of one partner share its limit across both processes, and a key’s own lower limit holds too', async () => {
    const { partnerId, sandboxKey } = await first.createPartner('IN', `Shared Keys ${storeName} ${randomUUID()}`);
    const keys: string[] = [];
    for (const rate_limit of [null, null, 2]) {
      const created = await first.partner('POST', '/keys', sandboxKey, {
        label: 'agent',
        scope: 'read_only',
        rate_limit,
      });
      expect(created.status).toBe(201);
      keys.push(created.body.api_key);
    }
    expect((await configure(first, partnerId, { rate_limit: 7 })).status).toBe(200);
    first.clock.advance(60_000);
    second.clock.advance(60_000);
    const [capped] = keys.slice(-1);
    const cappedAnswers = await Promise.all(
      Array.from({ length: 4 }, (_, index) => (index % 2 === 0 ? first : second).partner('GET', '/balance', capped)),
    );
    expect(cappedAnswers.filter((answer) => answer.status === 200)).toHaveLength(2);
    const burst = await Promise.all(
      [sandboxKey, ...keys.slice(0, 2)].flatMap((key) =>
        Array.from({ length: 4 }, (_, index) => (index % 2 === 0 ? first : second).partner('GET', '/balance', key)),
      ),
    );
    // 7 a minute in all: 2 went to the capped key (its 2 refusals count as well: 4 of 7 used).
    expect(burst.filter((answer) => answer.status === 200)).toHaveLength(3);
    expect(burst.filter((answer) => answer.status === 429)).toHaveLength(9);
  });
});
