import { RateLimitDecision, RateLimiter } from '../../application/ports/rate-limiter.port';
import { SchemaScript } from '../sql/migrations';
import { SqlExecutor } from '../sql/sql-database';
import { windowOf } from './rate-window';

export const RATE_LIMIT_SCHEMA: SchemaScript = {
  name: 'rate-limit',
  sql: `
CREATE TABLE IF NOT EXISTS rate_limit_windows (
  bucket text NOT NULL,
  window_start timestamptz NOT NULL,
  hits integer NOT NULL,
  PRIMARY KEY (bucket, window_start)
);
`,
};

interface WaitingHit {
  limitPerMinute: number;
  resetSeconds: number;
  resolve(decision: RateLimitDecision): void;
  reject(error: unknown): void;
}

/**
 * One row per key and minute; the upsert is atomic, so every process counts into the same row.
 * Hits on one key that arrive while that key's upsert is in flight are counted together in the
 * next one (`hits + n`), and each gets its own number from the range it returns: a hot key costs
 * one upsert per round trip instead of one per request queued on the row lock.
 */
export class SqlRateLimiter implements RateLimiter {
  private readonly lanes = new Map<string, { waiting: WaitingHit[]; busy: boolean }>();

  constructor(private readonly db: SqlExecutor) {}

  hit(bucket: string, limitPerMinute: number, now: Date): Promise<RateLimitDecision> {
    const window = windowOf(now);
    const id = `${window.start.toISOString()} ${bucket}`;
    return new Promise((resolve, reject) => {
      let lane = this.lanes.get(id);
      if (!lane) {
        lane = { waiting: [], busy: false };
        this.lanes.set(id, lane);
      }
      lane.waiting.push({ limitPerMinute, resetSeconds: window.resetSeconds, resolve, reject });
      if (!lane.busy) void this.flush(id, bucket, window.start, lane);
    });
  }

  private async flush(id: string, bucket: string, windowStart: Date, lane: { waiting: WaitingHit[]; busy: boolean }): Promise<void> {
    lane.busy = true;
    while (lane.waiting.length > 0) {
      const hits = lane.waiting.splice(0, lane.waiting.length);
      try {
        const rows = await this.db.query<{ hits: number }>(
          `INSERT INTO rate_limit_windows (bucket, window_start, hits) VALUES ($1, $2, $3)
           ON CONFLICT (bucket, window_start) DO UPDATE SET hits = rate_limit_windows.hits + EXCLUDED.hits
           RETURNING hits`,
          [bucket, windowStart.toISOString(), hits.length],
        );
        const first = rows[0].hits - hits.length + 1;
        hits.forEach((hit, index) => hit.resolve(decisionFor(first + index, hit)));
      } catch (error) {
        for (const hit of hits) hit.reject(error);
      }
    }
    lane.busy = false;
    this.lanes.delete(id);
  }

  async purgeBefore(before: Date): Promise<void> {
    await this.db.query('DELETE FROM rate_limit_windows WHERE window_start < $1', [before.toISOString()]);
  }
}

function decisionFor(hits: number, hit: WaitingHit): RateLimitDecision {
  const limit = hit.limitPerMinute;
  return { allowed: hits <= limit, limit, remaining: Math.max(limit - hits, 0), resetSeconds: hit.resetSeconds };
}
