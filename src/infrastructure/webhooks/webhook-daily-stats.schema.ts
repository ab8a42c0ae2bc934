import { SchemaScript } from '../sql/migrations';

/**
 * Webhook attempts counted per UTC day, environment and result, incremented in the statement that
 * records each attempt: the overview reads a week of them in a few dozen rows at any volume.
 * `result`: `delivered` (a 2xx), `retrying` (refused or unreachable, another attempt is scheduled)
 * or `failed` (refused or unreachable, and the delivery is FAILED: retries exhausted, or a re-send
 * of a delivery that had none left). Each (day, environment, result) is spread over 8 rows by
 * delivery (`shard`), so concurrent deliveries rarely wait on one another's counter row.
 */
/** How many rows each (day, environment, result) is spread over. */
export const WEBHOOK_STATS_SHARDS = 8;

export const WEBHOOK_DAILY_STATS_SCHEMA: SchemaScript = {
  name: 'webhook-daily-stats',
  sql: `
CREATE TABLE IF NOT EXISTS webhook_daily_stats (
  day date NOT NULL,
  environment text NOT NULL,
  result text NOT NULL,
  shard smallint NOT NULL,
  attempts bigint NOT NULL,
  PRIMARY KEY (day, environment, result, shard)
);
`,
};
