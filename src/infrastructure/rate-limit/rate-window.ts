import { RateLimitDecision } from '../../application/ports/rate-limiter.port';

const WINDOW_MS = 60_000;

/** Fixed one-minute windows aligned to the clock. */
export function windowOf(now: Date): { start: Date; resetSeconds: number } {
  const start = Math.floor(now.getTime() / WINDOW_MS) * WINDOW_MS;
  return { start: new Date(start), resetSeconds: Math.max(Math.ceil((start + WINDOW_MS - now.getTime()) / 1000), 1) };
}

/** The decision for the request that got number `hits` in its key's window. */
export function decisionOf(hits: number, limitPerMinute: number, resetSeconds: number): RateLimitDecision {
  return {
    allowed: hits <= limitPerMinute,
    limit: limitPerMinute,
    remaining: Math.max(limitPerMinute - hits, 0),
    resetSeconds,
  };
}
