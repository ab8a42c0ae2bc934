import { ProviderNotSentError } from '../../../../../src/application/ports/provider-gateway.port';
import { ReloadlyRateLimit } from '../../../../../src/infrastructure/providers/reloadly/reloadly-rate-limit';

/** Reloadly's 429 (RATE_LIMIT_REACHED): calls to that API wait for its reset, and are not sent meanwhile. */
describe('Reloadly’s rate limit, per API', () => {
  let now = Date.parse('2026-03-02T10:00:00Z');
  const limit = new ReloadlyRateLimit(() => now);
  const headers = (entries: Record<string, string>) => new Headers(entries);

  it('pauses the API for Retry-After seconds; the other API goes on', () => {
    limit.limited('topups', headers({ 'retry-after': '3' }));
    expect(() => limit.check('topups', 'POST /topups')).toThrow(ProviderNotSentError);
    expect(() => limit.check('topups', 'POST /topups')).toThrow(
      /was not sent: the topups API's rate limit was reached; calls resume at 2026-03-02T10:00:03.000Z/,
    );
    expect(() => limit.check('utilities', 'POST /pay')).not.toThrow();
    now += 3_000;
    expect(() => limit.check('topups', 'POST /topups')).not.toThrow();
    expect(limit.resumesAt('topups')).toBeNull();
  });

  it('says how long the API is paused, and a call refused meanwhile carries the time left as its retryAfterMs', () => {
    expect(limit.limited('topups', headers({ 'retry-after': '120' }))).toBe(120_000);
    now += 20_000;
    let refused: unknown = null;
    try {
      limit.check('topups', 'POST /topups');
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(ProviderNotSentError);
    expect((refused as ProviderNotSentError).retryAfterMs).toBe(100_000);
    now += 100_000;
    expect(() => limit.check('topups', 'POST /topups')).not.toThrow();
  });

  it('honours a reset Reloadly announces up to an hour ahead, and takes one further off as an hour', () => {
    expect(limit.limited('utilities', headers({ 'retry-after': new Date(now + 3 * 86_400_000).toUTCString() }))).toBe(
      3_600_000,
    );
    now += 3_600_000;
    expect(limit.resumesAt('utilities')).toBeNull();
  });

  it('takes a Retry-After date, and X-RateLimit-Reset as a Unix time', () => {
    limit.limited('utilities', headers({ 'retry-after': new Date(now + 5_000).toUTCString() }));
    expect(limit.resumesAt('utilities')?.getTime()).toBe(now + 5_000);
    now += 5_000;
    limit.limited('utilities', headers({ 'x-ratelimit-reset': String(Math.floor(now / 1000) + 7) }));
    expect(limit.resumesAt('utilities')?.getTime()).toBe(now + 7_000);
    now += 7_000;
  });

  it('without a reset, backs off 2 s, then doubling while 429s follow, at most a minute', () => {
    const pauses: number[] = [];
    for (let i = 0; i < 7; i++) {
      limit.limited('topups', headers({}));
      const resumes = limit.resumesAt('topups')!.getTime();
      pauses.push(resumes - now);
      now = resumes;
    }
    expect(pauses).toEqual([2_000, 4_000, 8_000, 16_000, 32_000, 60_000, 60_000]);
  });
});
