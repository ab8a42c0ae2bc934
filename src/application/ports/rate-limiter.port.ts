export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the current window ends. */
  resetSeconds: number;
  /** Whose limit this is: the partner's for the environment (all its keys), or a restricted key's own. */
  appliesTo?: 'partner' | 'key';
}

/** Counts requests per bucket (a partner's environment, a key) in one-minute windows, shared by every process. */
export interface RateLimiter {
  hit(bucket: string, limitPerMinute: number, now: Date): Promise<RateLimitDecision>;
  /** Forgets windows that ended before this time. */
  purgeBefore(before: Date): Promise<void>;
  /** Rejects when a counter store of its own (Redis) does not answer; for the readiness check. */
  check?(): Promise<void>;
}

export const RATE_LIMITER = Symbol('RateLimiter');
