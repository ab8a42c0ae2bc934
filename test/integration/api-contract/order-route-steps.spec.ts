import { randomUUID } from 'node:crypto';
import { expectRefusal } from '../../support/error-assertions';
import { ManualClock } from '../../support/manual-clock';
import { HttpAnswer, SANDBOX_PHONES, TestService } from '../../support/test-service';
import { SERVICE_START_TIMEOUT_MS } from '../../support/timeouts';

/**
 * POST /topup and /pay-bill are answered by a handler of their own rather than Nest's pipeline (decision 0170):
 * they must take its steps in its order, the key and its rate limit first, then the Idempotency-Key, then the
 * body, and answer each refusal with the Error body and the headers the other partner routes send.
 */

const ROUTES = [
  { path: '/topup', body: { operator_id: 101, phone: SANDBOX_PHONES.IN('0001'), amount: 100 } },
  { path: '/pay-bill', body: { biller_id: 1005, consumer_number: '1234560001', amount: 500 } },
] as const;

describe('the value-moving routes take the guards’, pipe’s and filter’s steps in their order', () => {
  let service: TestService;

  beforeAll(async () => {
    // The clock stands still, so no token comes back to the rate limit while a test counts them.
    service = await TestService.start({ store: 'postgres', clock: new ManualClock() });
  }, SERVICE_START_TIMEOUT_MS);
  afterAll(async () => {
    await service.close();
  });

  it.each(ROUTES)(
    'POST $path: key, rate limit, Idempotency-Key, body; then placed, and replayed as the same bytes',
    async (route) => {
      const { partnerId, sandboxKey: key } = await service.createPartner('IN', `Steps ${route.path}`);
      if (route.path === '/pay-bill')
        expect(
          (await service.partner('POST', '/bill-info', key, { biller_id: 1005, consumer_number: '1234560001' })).status,
        ).toBe(200);
      const limited = await service.admin('PATCH', `/partners/${partnerId}/settings`, {
        environment: 'sandbox',
        rate_limit: 6,
      });
      expect(limited.status).toBe(200);

      const post = (headers: Record<string, string>, body: unknown): Promise<HttpAnswer> =>
        service.request('POST', `/v1/partner${route.path}`, {
          rawBody: JSON.stringify(body),
          headers: { 'content-type': 'application/json', ...headers },
        });
      const malformed = { ...route.body, amount: 'a hundred' };
      const remainingOf = (answer: HttpAnswer): number => {
        expect(answer.headers.get('ratelimit-limit')).toBe('6');
        return Number(answer.headers.get('ratelimit-remaining'));
      };

      const wrongKey = await post({ authorization: 'Bearer sk_sandbox_not-a-key' }, malformed);
      expectRefusal(wrongKey, 401, 'invalid_api_key');
      expect(wrongKey.headers.get('ratelimit-limit')).toBeNull();

      const noKey = await post({ authorization: `Bearer ${key}` }, malformed);
      expectRefusal(noKey, 400, 'idempotency_key_required');
      expect(noKey.headers.get('content-type')).toBe('application/json; charset=utf-8');
      const left = remainingOf(noKey);
      expect(left).toBeGreaterThanOrEqual(3);

      const badBody = await post(
        { authorization: `Bearer ${key}`, 'idempotency-key': `steps-${randomUUID()}` },
        malformed,
      );
      expectRefusal(badBody, 400, 'validation_failed', 'amount');
      expect(remainingOf(badBody)).toBe(left - 1);

      const headers = { authorization: `Bearer ${key}`, 'idempotency-key': `steps-${randomUUID()}` };
      const placed = await post(headers, route.body);
      expect([placed.status, placed.body.status, placed.headers.get('idempotent-replay')]).toEqual([
        200,
        'PENDING',
        null,
      ]);
      expect(placed.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(remainingOf(placed)).toBe(left - 2);
      const replayed = await post(headers, route.body);
      expect([replayed.status, replayed.text, replayed.headers.get('idempotent-replay')]).toEqual([
        200,
        placed.text,
        'true',
      ]);
      expect(remainingOf(replayed)).toBe(left - 3);

      let answer = replayed;
      for (let spare = left - 3; spare >= 0; spare--)
        answer = await post({ authorization: `Bearer ${key}` }, malformed);
      expectRefusal(answer, 429, 'rate_limit_exceeded');
      expect(answer.headers.get('retry-after')).not.toBeNull();
      expect(remainingOf(answer)).toBe(0);
    },
  );
});
