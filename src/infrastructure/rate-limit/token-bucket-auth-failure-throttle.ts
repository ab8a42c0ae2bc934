import { AttemptAdmission, AuthFailureThrottle } from '../../application/ports/auth-failure-throttle.port';
import { TokenBuckets } from './token-buckets';
import { WINDOW_MS, intervalMs } from './token-bucket';

/**
 * A token bucket of failures per address: `limitPerMinute` failures at once, then one more every
 * 60 s / limit. An address whose bucket is empty waits until it holds one failure again.
 */
export class TokenBucketAuthFailureThrottle implements AuthFailureThrottle {
  constructor(
    private readonly buckets: TokenBuckets,
    private readonly limitPerMinute: number,
  ) {}

  async admit(address: string, now: Date): Promise<AttemptAdmission> {
    const nowMs = now.getTime();
    if ((await this.buckets.aheadOf(address, nowMs)) <= 0) return { refused: false, charged: false };
    const { aheadMs, taken } = await this.buckets.take(address, this.limitPerMinute, nowMs, false);
    if (taken) return { refused: false, charged: true };
    const waitMs = aheadMs - (WINDOW_MS - intervalMs(this.limitPerMinute));
    return { refused: true, retryAfterSeconds: Math.max(Math.ceil(waitMs / 1000 - 1e-9), 1) };
  }

  async recordFailure(address: string, now: Date, charged: boolean): Promise<void> {
    if (!charged) await this.buckets.take(address, this.limitPerMinute, now.getTime(), true);
  }

  async refund(address: string, now: Date): Promise<void> {
    await this.buckets.giveBack(address, this.limitPerMinute, now.getTime());
  }
}
