import { DEFAULT_RATE_LIMIT_PER_MINUTE } from '../../domain/partner/partner-settings';
import { Environment } from '../../domain/shared/environment';
import { SqlExecutor } from '../sql/sql-database';

/** A partner's requests per minute in an environment as the read models hold it, as the admission reads it. */
export async function partnerRateLimit(db: SqlExecutor, partnerId: string, environment: Environment): Promise<number> {
  const rows = await db.query<{ limit_per_minute: number }>(
    `SELECT coalesce((settings ->> 'rateLimitPerMinute')::integer, $3::integer) AS limit_per_minute
       FROM rm_partner_settings WHERE partner_id = $1 AND environment = $2`,
    [partnerId, environment, DEFAULT_RATE_LIMIT_PER_MINUTE],
  );
  return rows[0]?.limit_per_minute ?? DEFAULT_RATE_LIMIT_PER_MINUTE;
}
