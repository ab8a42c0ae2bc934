import { SchemaScript } from '../sql/migrations';

/**
 * Webhook attempts per UTC day, environment and result (`delivered`, `retrying`, `failed`), counted in the statement
 * recording each attempt (decision 0109). Each is spread over 8 `shard` rows, so concurrent deliveries rarely wait on
 * one counter row.
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
