import { decisionsOf, freeOf } from '../../../../src/infrastructure/rate-limit/token-bucket';
import { MemoryTokenBuckets } from '../../../../src/infrastructure/rate-limit/memory-token-buckets';
import { TokenBucketAuthFailureThrottle } from '../../../../src/infrastructure/rate-limit/token-bucket-auth-failure-throttle';

describe('the token bucket of a limit per minute', () => {
  it('holds the whole limit when full, and refills one every 60 s / limit', () => {
    expect(freeOf(0, 5)).toBe(5);
    expect(freeOf(60_000, 5)).toBe(0);
    expect(freeOf(48_000, 5)).toBe(1);
    expect(freeOf(48_001, 5)).toBe(0);
    // 60 000 / 7 is not a whole number of ms; seven steps of it still empty the bucket exactly.
    expect(freeOf(7 * (60_000 / 7), 7)).toBe(0);
    expect(freeOf(6 * (60_000 / 7), 7)).toBe(1);
  });

  it('decides hits counted together in order: the limit allowed, the rest refused with when the next fits', () => {
    expect(decisionsOf(0, 7, 5)).toEqual([
      { allowed: true, limit: 5, remaining: 4, resetSeconds: 12 },
      { allowed: true, limit: 5, remaining: 3, resetSeconds: 24 },
      { allowed: true, limit: 5, remaining: 2, resetSeconds: 36 },
      { allowed: true, limit: 5, remaining: 1, resetSeconds: 48 },
      { allowed: true, limit: 5, remaining: 0, resetSeconds: 60 },
      { allowed: false, limit: 5, remaining: 0, resetSeconds: 12 },
      { allowed: false, limit: 5, remaining: 0, resetSeconds: 12 },
    ]);
    expect(decisionsOf(50_000, 1, 5)).toEqual([{ allowed: false, limit: 5, remaining: 0, resetSeconds: 2 }]);
  });
});

describe('failed authentications per address, in memory', () => {
  const at = (ms: number) => new Date(1_800_000_000_000 + ms);

  it('lets a clean address through at no charge, then charges in advance once it has failed', async () => {
    const throttle = new TokenBucketAuthFailureThrottle(new MemoryTokenBuckets(), 2);
    expect(await throttle.admit('192.0.2.1', at(0))).toEqual({ refused: false, charged: false });
    await throttle.recordFailure('192.0.2.1', at(0), false);
    expect(await throttle.admit('192.0.2.1', at(0))).toEqual({ refused: false, charged: true });
    expect(await throttle.admit('192.0.2.1', at(0))).toEqual({ refused: true, retryAfterSeconds: 30 });
    await throttle.refund('192.0.2.1', at(0));
    expect(await throttle.admit('192.0.2.1', at(0))).toEqual({ refused: false, charged: true });
    expect(await throttle.admit('192.0.2.2', at(0))).toEqual({ refused: false, charged: false });
    expect(await throttle.admit('192.0.2.1', at(30_000))).toEqual({ refused: false, charged: true });
  });
});
