import { TokenBuckets } from './token-buckets';
import { freeOf, intervalMs, tatAfter } from './token-bucket';

/** Forgetting full buckets once there are this many keeps a flood of addresses from growing the map without end. */
const SWEEP_ABOVE = 10_000;

export class MemoryTokenBuckets implements TokenBuckets {
  private readonly tats = new Map<string, number>();

  take(key: string, limit: number, nowMs: number, force: boolean): Promise<{ aheadMs: number; taken: boolean }> {
    const tat = this.tats.get(key) ?? 0;
    const aheadMs = Math.max(tat - nowMs, 0);
    const taken = force || freeOf(aheadMs, limit) >= 1;
    if (taken) {
      if (this.tats.size >= SWEEP_ABOVE) this.sweep(nowMs);
      this.tats.set(key, tatAfter(tat, nowMs, 1, limit));
    }
    return Promise.resolve({ aheadMs, taken });
  }

  giveBack(key: string, limit: number, nowMs: number): Promise<void> {
    const tat = this.tats.get(key);
    if (tat !== undefined) {
      const earlier = tat - intervalMs(limit);
      if (earlier <= nowMs) this.tats.delete(key);
      else this.tats.set(key, earlier);
    }
    return Promise.resolve();
  }

  aheadOf(key: string, nowMs: number): Promise<number> {
    return Promise.resolve((this.tats.get(key) ?? 0) - nowMs);
  }

  private sweep(nowMs: number): void {
    for (const [key, tat] of this.tats) if (tat <= nowMs) this.tats.delete(key);
  }
}
