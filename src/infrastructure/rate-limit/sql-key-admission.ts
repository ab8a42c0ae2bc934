import { bindingDecision, BucketDecision, bucketsOf } from '../../application/ports/rate-limit-buckets';
import { KeyAdmission, KeyAdmitted } from '../../application/ports/key-admission.port';
import { ApiKeyAccess } from '../../application/ports/read-models.port';
import { Environment } from '../../domain/shared/environment';
import { API_KEY_ACCESS_SELECT, ApiKeyAccessRow, toApiKeyAccess } from '../read-models/sql-read-models';
import { SqlExecutor } from '../sql/sql-database';
import { StatementBatcher } from '../sql/statement-batcher';
import { decisionOf, windowOf } from './rate-window';

interface Lookup {
  keyHash: string;
  environment: Environment;
  windowStart: string;
  resetSeconds: number;
  at: string;
}

interface AdmissionRow extends ApiKeyAccessRow {
  /** The windows in which this statement counted the key's requests (it passed every check that needs no address). */
  admitted_windows: string[] | null;
  /** The totals after this statement of the rows it counted into: [window start, hits] per window. */
  partner_windows: [string, number][] | null;
  key_windows: [string, number][] | null;
}

/**
 * With the rate limit kept in the service database (RATE_LIMIT_STORE=database), the key lookup
 * and the rate-limit upsert are one statement: a request costs one round trip before its
 * business work instead of two. The statement counts into the same `rate_limit_windows` rows as
 * SqlRateLimiter (one per bucket and minute: `partner:<partner>:<environment>` for every key of the
 * environment, and `key:<key id>` for a restricted key with a limit of its own), which still counts
 * the requests of partners with an IP allowlist, after the address check that needs the caller's
 * address.
 *
 * The SQL repeats the conditions of AuthenticateApiKey that need no address, so that a request
 * refused with 401 or 403 is not counted. Concurrent lookups share the statement, like the
 * limiter's upserts: one row per bucket and minute, each request numbered in the order it came.
 */
export class SqlKeyAdmission implements KeyAdmission {
  /**
   * One statement in flight: two would lock the same counter rows (every busy partner's) in turn
   * anyway, so the second mostly waited for the first; one at a time makes half as many, larger
   * statements (about 7 % more topups per second over 100 keys at 64 connections, in probes).
   */
  private readonly lookups = new StatementBatcher<Lookup, KeyAdmitted>((items) => this.admit(items), {
    concurrency: 1,
    maxBatch: 256,
  });

  constructor(private readonly db: SqlExecutor) {}

  lookUp(keyHash: string, environment: Environment, now: Date): Promise<KeyAdmitted> {
    const window = windowOf(now);
    return this.lookups.submit({
      keyHash,
      environment,
      windowStart: window.start.toISOString(),
      resetSeconds: window.resetSeconds,
      at: now.toISOString(),
    });
  }

  private async admit(items: readonly Lookup[]): Promise<KeyAdmitted[]> {
    const groupOf = (keyHash: string, environment: string, windowStart: string) =>
      `${keyHash} ${environment} ${windowStart}`;
    const groups = new Map<string, Lookup & { requests: number }>();
    for (const item of items) {
      const key = groupOf(item.keyHash, item.environment, item.windowStart);
      const group = groups.get(key);
      if (group) group.requests += 1;
      else groups.set(key, { ...item, requests: 1 });
    }
    const wanted = [...groups.values()];
    const rows = await this.db.query<AdmissionRow>(
      `WITH wanted AS (
         SELECT * FROM jsonb_to_recordset($1::jsonb)
           AS w(key_hash text, environment text, window_start timestamptz, requests integer, at timestamptz)
       ), access AS (
         SELECT x.*,
                (x.active AND x.partner_found IS NOT NULL AND NOT x.access_change_pending
                 AND x.kind IN ('main', 'restricted')
                 AND (x.environment <> 'live' OR x.kyc_status = 'approved')
                 AND coalesce(jsonb_array_length(x.settings -> 'ipAllowlist'), 0) = 0) AS admissible
           FROM (${API_KEY_ACCESS_SELECT} WHERE k.key_hash IN (SELECT key_hash FROM wanted)) x
       ), admitted AS (
         SELECT a.key_id, a.partner_id, a.environment, a.rate_limit, w.window_start, w.requests
           FROM wanted w JOIN access a ON a.key_hash = w.key_hash AND a.environment = w.environment
          WHERE a.admissible AND (a.expires_at IS NULL OR a.expires_at > w.at)
       ), buckets AS (
         SELECT 'partner:' || partner_id || ':' || environment AS bucket, window_start, sum(requests)::integer AS hits
           FROM admitted GROUP BY 1, 2
         UNION ALL
         SELECT 'key:' || key_id, window_start, sum(requests)::integer FROM admitted WHERE rate_limit IS NOT NULL GROUP BY 1, 2
       ), counted AS (
         INSERT INTO rate_limit_windows (bucket, window_start, hits)
         SELECT bucket, window_start, hits FROM buckets
          -- Rows locked in one order by every process: no deadlock between overlapping batches.
          ORDER BY 1, 2
         ON CONFLICT (bucket, window_start) DO UPDATE SET hits = rate_limit_windows.hits + EXCLUDED.hits
         RETURNING bucket, window_start, hits
       ), totals AS (
         SELECT bucket, json_agg(json_build_array(window_start, hits)) AS windows FROM counted GROUP BY bucket
       )
       SELECT a.*, ad.windows AS admitted_windows, p.windows AS partner_windows, k.windows AS key_windows
         FROM access a
         LEFT JOIN (SELECT key_id, json_agg(window_start) AS windows FROM admitted GROUP BY key_id) ad ON ad.key_id = a.key_id
         LEFT JOIN totals p ON p.bucket = 'partner:' || a.partner_id || ':' || a.environment
         LEFT JOIN totals k ON k.bucket = 'key:' || a.key_id`,
      // One JSON document rather than an array literal per column (which the driver builds element by element).
      [
        JSON.stringify(
          wanted.map((group) => ({
            key_hash: group.keyHash,
            environment: group.environment,
            window_start: group.windowStart,
            requests: group.requests,
            at: group.at,
          })),
        ),
      ],
    );
    const byHash = new Map(rows.map((row) => [row.key_hash, row]));
    // Each bucket's window: its new total less what this batch added is where this batch's numbers start.
    const totals = new Map<string, number>();
    const added = new Map<string, number>();
    const rowOf = (bucket: string, windowStart: string) => `${bucket} ${windowStart}`;
    const counted = items.map((item) => {
      const row = byHash.get(item.keyHash);
      const admittedHere = row?.admitted_windows?.some((start) => new Date(start).toISOString() === item.windowStart);
      if (!row || !admittedHere || row.environment !== item.environment) return null;
      const access = toApiKeyAccess(row);
      const windows = new Map<string, [string, number][] | null>([
        ['partner', row.partner_windows],
        ['key', row.key_windows],
      ]);
      const buckets = bucketsOf(
        { partnerId: row.partner_id, environment: row.environment, keyId: row.key_id },
        access.settings.rateLimitPerMinute,
        row.rate_limit,
      );
      for (const bucket of buckets) {
        const total = windows
          .get(bucket.appliesTo)
          ?.find(([start]) => new Date(start).toISOString() === item.windowStart);
        if (total === undefined) throw new Error(`rate limit row ${bucket.bucket} was not counted`);
        const key = rowOf(bucket.bucket, item.windowStart);
        totals.set(key, total[1]);
        added.set(key, (added.get(key) ?? 0) + 1);
      }
      return { access, buckets };
    });
    const next = new Map<string, number>();
    for (const [key, total] of totals) next.set(key, total - (added.get(key) ?? 0) + 1);
    return items.map((item, index) => {
      const admitted = counted[index];
      const row = byHash.get(item.keyHash);
      const access: ApiKeyAccess | null = admitted?.access ?? (row ? toApiKeyAccess(row) : null);
      if (!admitted) return { access, rateLimit: null };
      const decisions = admitted.buckets.map((bucket): BucketDecision => {
        const key = rowOf(bucket.bucket, item.windowStart);
        const number = next.get(key) ?? 1;
        next.set(key, number + 1);
        return { ...decisionOf(number, bucket.limitPerMinute, item.resetSeconds), appliesTo: bucket.appliesTo };
      });
      return { access, rateLimit: bindingDecision(decisions) };
    });
  }
}
