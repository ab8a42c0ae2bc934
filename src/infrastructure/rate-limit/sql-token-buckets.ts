import { RateLimitDecision } from '../../application/ports/rate-limiter.port';
import { SchemaScript } from '../sql/migrations';
import { decisionsOf, intervalMs } from './token-bucket';

export const RATE_LIMIT_BUCKETS_SCHEMA: SchemaScript = {
  name: 'rate-limit-buckets',
  sql: `
-- A token bucket per counter: the time (ms since the epoch) at which it is full again, and how
-- many requests the last statement that counted into it took (so that statement can tell the
-- state before it from the state it returns).
CREATE TABLE IF NOT EXISTS rate_limit_buckets (
  bucket text PRIMARY KEY,
  tat double precision NOT NULL,
  taken integer NOT NULL
);
CREATE INDEX IF NOT EXISTS rate_limit_buckets_tat ON rate_limit_buckets (tat);
`,
};

/**
 * Migration 17: a take rewrites its bucket's row in place (a HOT update, no index entry): no index names `tat`, and
 * half of each page is left free for the row's next versions. The sweep of idle buckets reads the table, which holds
 * one row per partner, environment and limited key.
 */
export const RATE_LIMIT_BUCKETS_IN_PLACE_SCHEMA: SchemaScript = {
  name: 'rate-limit-buckets-in-place',
  sql: `
DROP INDEX IF EXISTS rate_limit_buckets_tat;
ALTER TABLE rate_limit_buckets SET (fillfactor = 50);
`,
};

/**
 * A CTE body taking a batch from each bucket of `wanted` (bucket, requests, limit_per_minute, now_ms): as many as the
 * bucket holds, one upsert per row under its lock, so concurrent processes see each other's take.
 */
export const TAKE_FROM_WANTED_SQL = `INSERT INTO rate_limit_buckets (bucket, tat, taken)
  SELECT bucket, now_ms + least(requests, limit_per_minute) * 60000.0 / limit_per_minute, least(requests, limit_per_minute)
    FROM wanted ORDER BY bucket
  ON CONFLICT (bucket) DO UPDATE SET (tat, taken) = (
    SELECT greatest(rate_limit_buckets.tat, w.now_ms) + t.taken * 60000.0 / w.limit_per_minute, t.taken
      FROM wanted w,
           LATERAL (SELECT least(w.requests, greatest(0, floor(
             (60000 - (greatest(rate_limit_buckets.tat, w.now_ms) - w.now_ms)) * w.limit_per_minute / 60000.0 + 1e-9
           )))::integer AS taken) t
     WHERE w.bucket = EXCLUDED.bucket)
  RETURNING bucket, tat, taken`;

export const TAKE_FROM_BUCKETS_SQL = `WITH wanted AS (
    SELECT * FROM jsonb_to_recordset($1::jsonb)
      AS w(bucket text, requests integer, limit_per_minute integer, now_ms double precision)
  ) ${TAKE_FROM_WANTED_SQL}`;

export interface TakenRow {
  bucket: string;
  tat: number;
  taken: number;
}

export function decisionsOfBatch(
  taken: readonly TakenRow[],
  wanted: readonly { bucket: string; requests: number; limit: number; nowMs: number }[],
): Map<string, RateLimitDecision[]> {
  const rows = new Map(taken.map((row) => [row.bucket, row]));
  const decisions = new Map<string, RateLimitDecision[]>();
  for (const want of wanted) {
    const row = rows.get(want.bucket);
    if (!row) continue;
    const before = row.tat - row.taken * intervalMs(want.limit);
    decisions.set(want.bucket, decisionsOf(before - want.nowMs, want.requests, want.limit));
  }
  return decisions;
}
