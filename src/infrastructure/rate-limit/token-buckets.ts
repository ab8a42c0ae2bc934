export interface TokenBuckets {
  /**
   * Takes one request from the bucket if it holds one (or always, with `force`): how far past now
   * its `tat` was before, and whether the request was taken.
   */
  take(key: string, limit: number, nowMs: number, force: boolean): Promise<{ aheadMs: number; taken: boolean }>;
  giveBack(key: string, limit: number, nowMs: number): Promise<void>;
  aheadOf(key: string, nowMs: number): Promise<number>;
}
