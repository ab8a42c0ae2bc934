import { OnApplicationShutdown } from '@nestjs/common';
import Redis from 'ioredis';
import { RateLimitDecision, RateLimiter } from '../../application/ports/rate-limiter.port';
import { decisionOf, windowOf } from './rate-window';

/** The same windows in Redis (INCR + PEXPIRE in one MULTI), for deployments that prefer to keep this load off PostgreSQL. */
export class RedisRateLimiter implements RateLimiter, OnApplicationShutdown {
  constructor(private readonly redis: Redis) {}

  static connect(url: string): RedisRateLimiter {
    return new RedisRateLimiter(
      new Redis(url, { maxRetriesPerRequest: 2, enableOfflineQueue: true, lazyConnect: false }),
    );
  }

  async hit(bucket: string, limitPerMinute: number, now: Date): Promise<RateLimitDecision> {
    const window = windowOf(now);
    const key = `ratelimit:${bucket}:${window.start.getTime()}`;
    const results = await this.redis.multi().incr(key).pexpire(key, 120_000).exec();
    const hits = Number(results?.[0]?.[1] ?? 0);
    return decisionOf(hits, limitPerMinute, window.resetSeconds);
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

  /** Redis expires each window's key by itself. */
  async purgeBefore(): Promise<void> {
    return;
  }
}
