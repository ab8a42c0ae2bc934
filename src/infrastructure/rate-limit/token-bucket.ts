import { RateLimitDecision } from '../../application/ports/rate-limiter.port';

/**
 * A token bucket kept as its theoretical arrival time (GCRA): `limit` per minute, refilling one every 60 s / limit; its
 * state is the time it would be full again (`tat`). Unlike minute windows, no clock edge gives a fresh budget (decision
 * 0140).
 */
export const WINDOW_MS = 60_000;

export const intervalMs = (limit: number): number => WINDOW_MS / limit;

export function freeOf(aheadMs: number, limit: number): number {
  // The epsilon absorbs the rounding of 60 000 / limit summed over many requests.
  return Math.max(Math.floor(((WINDOW_MS - aheadMs) * limit) / WINDOW_MS + 1e-9), 0);
}

/**
 * The decisions for `requests` hits counted together, in order, against a bucket whose `tat` was
 * `aheadMs` past now before them. A refused hit takes nothing from the bucket.
 */
export function decisionsOf(aheadMs: number, requests: number, limit: number): RateLimitDecision[] {
  const ahead = Math.max(aheadMs, 0);
  const free = freeOf(ahead, limit);
  const step = intervalMs(limit);
  const aheadWhenEmptied = ahead + Math.min(free, requests) * step;
  return Array.from({ length: requests }, (_, index): RateLimitDecision => {
    const number = index + 1;
    if (number <= free)
      return {
        allowed: true,
        limit,
        remaining: free - number,
        resetSeconds: seconds(ahead + number * step),
      };
    return { allowed: false, limit, remaining: 0, resetSeconds: seconds(aheadWhenEmptied - (WINDOW_MS - step)) };
  });
}

export const tatAfter = (tat: number, nowMs: number, taken: number, limit: number): number =>
  Math.max(tat, nowMs) + taken * intervalMs(limit);

const seconds = (ms: number): number => Math.max(Math.ceil(ms / 1000 - 1e-9), 1);
