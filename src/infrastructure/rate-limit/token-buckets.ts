/** Where token buckets are kept (see token-bucket.ts); what the throttles and the Redis limiter share. */
export interface TokenBuckets {
  /**
   * Takes one request from the bucket if it holds one (or always, with `force`): how far past now
   * its `tat` was before, and whether the request was taken.
   */
  take(key: string, limit: number, nowMs: number, force: boolean): Promise<{ aheadMs: number; taken: boolean }>;
  /** Gives back one request taken earlier (never leaving the bucket fuller than full). */
  giveBack(key: string, limit: number, nowMs: number): Promise<void>;
  /** How far past now the bucket's `tat` lies (0 or less: full), without taking anything. */
  aheadOf(key: string, nowMs: number): Promise<number>;
}
