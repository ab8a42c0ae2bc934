import { RateLimitDecision, RateLimiter } from '../../application/ports/rate-limiter.port';
import { SchemaScript } from '../sql/migrations';
import { SqlExecutor } from '../sql/sql-database';
import { StatementBatcher } from '../sql/statement-batcher';
import { decisionOf, windowOf } from './rate-window';

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

interface Hit {
  bucket: string;
  windowStart: string;
}

/**
 * One row per key and minute; the upsert is atomic, so every process counts into the same row.
 * Hits that arrive while an upsert is in flight are counted together in the next one, one row
 * per key (`hits + n`), and each gets its own number from the range its row returns: a busy
 * service costs one upsert per round trip instead of one per request.
 */
export class SqlRateLimiter implements RateLimiter {
  private readonly upserts = new StatementBatcher<Hit, number>((hits) => this.count(hits));

  constructor(private readonly db: SqlExecutor) {}

  async hit(bucket: string, limitPerMinute: number, now: Date): Promise<RateLimitDecision> {
    const window = windowOf(now);
    const hits = await this.upserts.submit({ bucket, windowStart: window.start.toISOString() });
    return decisionOf(hits, limitPerMinute, window.resetSeconds);
  }

  /** The running count of each hit, in the order the hits came. */
  private async count(hits: readonly Hit[]): Promise<number[]> {
    const rowOf = (bucket: string, windowStart: string) => JSON.stringify([bucket, windowStart]);
    const added = new Map<string, Hit & { count: number }>();
    for (const hit of hits) {
      const row = added.get(rowOf(hit.bucket, hit.windowStart));
      if (row) row.count += 1;
      else added.set(rowOf(hit.bucket, hit.windowStart), { ...hit, count: 1 });
    }
    // Sorted, so processes counting into overlapping rows lock them in the same order (no deadlock).
    const rows = [...added.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, row]) => row);
    const totals = await this.db.query<{ bucket: string; window_start: Date | string; hits: number }>(
      `INSERT INTO rate_limit_windows (bucket, window_start, hits)
       SELECT * FROM unnest($1::text[], $2::timestamptz[], $3::integer[])
       ON CONFLICT (bucket, window_start) DO UPDATE SET hits = rate_limit_windows.hits + EXCLUDED.hits
       RETURNING bucket, window_start, hits`,
      [rows.map((row) => row.bucket), rows.map((row) => row.windowStart), rows.map((row) => row.count)],
    );
    // The first number each row gives out in this batch: its new total less what this batch added.
    const next = new Map<string, number>();
    for (const total of totals) {
      const key = rowOf(total.bucket, new Date(total.window_start).toISOString());
      next.set(key, total.hits - (added.get(key)?.count ?? 0) + 1);
    }
    return hits.map((hit) => {
      const key = rowOf(hit.bucket, hit.windowStart);
      const number = next.get(key);
      if (number === undefined) throw new Error(`rate limit row ${key} was not counted`);
      next.set(key, number + 1);
      return number;
    });
  }

  async purgeBefore(before: Date): Promise<void> {
    await this.db.query('DELETE FROM rate_limit_windows WHERE window_start < $1', [before.toISOString()]);
  }
}
