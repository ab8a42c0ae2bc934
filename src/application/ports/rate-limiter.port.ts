export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Allowed: seconds until the whole limit is available again. Refused: seconds until the next request is. */
  resetSeconds: number;
  /** Whose limit this is: the partner's for the environment (all its keys), or a restricted key's own. */
  appliesTo?: 'partner' | 'key';
}

/**
 * Counts requests per bucket (a partner's environment, a key) against a limit per minute, over a
 * sliding minute (a token bucket refilled continuously), shared by every process. A refused request
 * is not counted.
 */
export interface RateLimiter {
  hit(bucket: string, limitPerMinute: number, now: Date): Promise<RateLimitDecision>;
  /** Forgets buckets that have been full since before this time (a full bucket is no row at all). */
  purgeBefore(before: Date): Promise<void>;
  /** Rejects when a counter store of its own (Redis) does not answer; for the readiness check. */
  check?(): Promise<void>;
}

export const RATE_LIMITER = Symbol('RateLimiter');
