import { OnApplicationShutdown } from '@nestjs/common';
import Redis from 'ioredis';
import { RateLimitDecision, RateLimiter } from '../../application/ports/rate-limiter.port';
import { RedisTokenBuckets } from './redis-token-buckets';
import { decisionsOf } from './token-bucket';

/** The same token buckets in Redis (one Lua script per hit), for deployments that prefer to keep this load off PostgreSQL. */
export class RedisRateLimiter implements RateLimiter, OnApplicationShutdown {
  private readonly buckets: RedisTokenBuckets;

  constructor(readonly redis: Redis) {
    this.buckets = new RedisTokenBuckets(redis, 'ratelimit:bucket:');
  }

  static connect(url: string): RedisRateLimiter {
    return new RedisRateLimiter(
      new Redis(url, { maxRetriesPerRequest: 2, enableOfflineQueue: true, lazyConnect: false }),
    );
  }

  async hit(bucket: string, limitPerMinute: number, now: Date): Promise<RateLimitDecision> {
    const { aheadMs } = await this.buckets.take(bucket, limitPerMinute, now.getTime(), false);
    const [decision] = decisionsOf(aheadMs, 1, limitPerMinute);
    if (decision === undefined) throw new Error(`rate limit bucket ${bucket} gave no decision`);
    return decision;
  }

  async check(): Promise<void> {
    await this.redis.ping();
  }

  async close(): Promise<void> {
    if (this.redis.status === 'end') return;
    await this.redis.quit();
  }

  /** The open connection would otherwise keep the process alive after the application closed. */
  async onApplicationShutdown(): Promise<void> {
    await this.close();
  }

  async purgeBefore(): Promise<void> {
    return;
  }
}
