import { ManualClock } from '../../support/manual-clock';
import { TestService } from '../../support/test-service';

/** 100 ms before a minute turns: where fixed one-minute windows handed out a second budget at once. */
const JUST_BEFORE_THE_MINUTE = new Date('2026-04-01T08:15:59.900Z');

describe.each([
  ['PostgreSQL', {}],
  ['Redis', { RATE_LIMIT_STORE: 'redis', REDIS_URL: 'redis://127.0.0.1:6379' }],
])('the rate limit over a sliding minute (counted in %s)', (_storeName, env) => {
  let service: TestService;

  beforeAll(async () => {
    service = await TestService.start({ store: 'postgres', clock: new ManualClock(JUST_BEFORE_THE_MINUTE), env });
  });
  afterAll(async () => {
    await service.close();
  });

  const statusesOf = async (key: string, requests: number): Promise<number[]> => {
    const statuses: number[] = [];
    for (let request = 0; request < requests; request++)
      statuses.push((await service.partner('GET', '/balance', key)).status);
    return statuses;
  };

  it('a limit used up just before the minute turns is not handed out again just after it', async () => {
    const { partnerId, sandboxKey } = await service.createPartner('IN', 'Window Edge');
    const configured = await service.admin('PATCH', `/partners/${partnerId}/settings`, {
      environment: 'sandbox',
      rate_limit: 5,
    });
    expect(configured.status).toBe(200);
    // The settings change moved nothing: the clock is still 100 ms before the minute.
    expect(await statusesOf(sandboxKey, 6)).toEqual([200, 200, 200, 200, 200, 429]);

    await service.advance(200);
    const acrossTheEdge = await service.partner('GET', '/balance', sandboxKey);
    expect({ status: acrossTheEdge.status, body: acrossTheEdge.body }).toEqual({
      status: 429,
      body: { error: 'rate_limit_exceeded', detail: expect.any(String) },
    });
    expect(acrossTheEdge.headers.get('retry-after')).toBe('12');

    // One request comes back every 60 s / 5 = 12 s after the burst, never more.
    await service.advance(11_800);
    expect(await statusesOf(sandboxKey, 2)).toEqual([200, 429]);
    await service.advance(12_000);
    expect(await statusesOf(sandboxKey, 2)).toEqual([200, 429]);

    // Over any minute, at most the limit: the burst, then two; a minute after the burst, the rest.
    await service.advance(36_000);
    const afterAMinute = await service.partner('GET', '/balance', sandboxKey);
    expect(afterAMinute.status).toBe(200);
    expect(afterAMinute.headers.get('ratelimit-remaining')).toBe('2');
  });
});
