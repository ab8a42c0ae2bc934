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

/** One row per key and minute; the upsert is atomic, so every process counts into the same row. */
export class SqlRateLimiter implements RateLimiter {
  constructor(private readonly db: SqlExecutor) {}

  async hit(bucket: string, limitPerMinute: number, now: Date): Promise<RateLimitDecision> {
    const window = windowOf(now);
    const rows = await this.db.query<{ hits: number }>(
      `INSERT INTO rate_limit_windows (bucket, window_start, hits) VALUES ($1, $2, 1)
       ON CONFLICT (bucket, window_start) DO UPDATE SET hits = rate_limit_windows.hits + 1
       RETURNING hits`,
      [bucket, window.start.toISOString()],
    );
    const hits = rows[0].hits;
    return { allowed: hits <= limitPerMinute, limit: limitPerMinute, remaining: Math.max(limitPerMinute - hits, 0), resetSeconds: window.resetSeconds };
  }

  async purgeBefore(before: Date): Promise<void> {
    await this.db.query('DELETE FROM rate_limit_windows WHERE window_start < $1', [before.toISOString()]);
  }
}
