import { RateLimitDecision, RateLimiter } from '../../application/ports/rate-limiter.port';
import { SchemaScript } from '../sql/migrations';
import { SqlExecutor } from '../sql/sql-database';
import { StatementBatcher } from '../sql/statement-batcher';
import { TAKE_FROM_BUCKETS_SQL, TakenRow, decisionsOfBatch } from './sql-token-buckets';

/** The fixed one-minute windows of earlier releases (baseline schema); no longer written. */
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
  limit: number;
  nowMs: number;
}

/**
 * One row per bucket (its theoretical arrival time), upserted atomically, so every process counts into it. Hits
 * arriving during an upsert go together in the next one, each decided in arrival order: one upsert per round trip, not
 * per request.
 */
export class SqlRateLimiter implements RateLimiter {
  private readonly upserts = new StatementBatcher<Hit, RateLimitDecision>((hits) => this.count(hits));

  constructor(private readonly db: SqlExecutor) {}

  hit(bucket: string, limitPerMinute: number, now: Date): Promise<RateLimitDecision> {
    return this.upserts.submit({ bucket, limit: limitPerMinute, nowMs: now.getTime() });
  }

  private async count(hits: readonly Hit[]): Promise<RateLimitDecision[]> {
    const groups = new Map<string, Hit & { requests: number }>();
    for (const hit of hits) {
      const group = groups.get(hit.bucket);
      if (group) {
        group.requests += 1;
        group.nowMs = Math.max(group.nowMs, hit.nowMs);
      } else groups.set(hit.bucket, { ...hit, requests: 1 });
    }
    // Sorted, so processes counting into overlapping rows lock them in the same order (no deadlock).
    const rows = [...groups.values()].sort((a, b) => (a.bucket < b.bucket ? -1 : a.bucket > b.bucket ? 1 : 0));
    const taken = await this.db.query<TakenRow>(TAKE_FROM_BUCKETS_SQL, [
      JSON.stringify(
        rows.map((row) => ({
          bucket: row.bucket,
          requests: row.requests,
          limit_per_minute: row.limit,
          now_ms: row.nowMs,
        })),
      ),
    ]);
    const decisions = decisionsOfBatch(taken, rows);
    return hits.map((hit) => {
      const next = decisions.get(hit.bucket)?.shift();
      if (next === undefined) throw new Error(`rate limit bucket ${hit.bucket} was not counted`);
      return next;
    });
  }

  async purgeBefore(before: Date): Promise<void> {
    await this.db.query('DELETE FROM rate_limit_buckets WHERE tat < $1', [before.getTime()]);
  }
}
