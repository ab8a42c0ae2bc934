import { SchemaScript } from '../sql/migrations';

export const IDEMPOTENCY_SCHEMA: SchemaScript = {
  name: 'idempotency',
  sql: `
CREATE TABLE IF NOT EXISTS idempotency_keys (
  partner_id text NOT NULL,
  environment text NOT NULL,
  idempotency_key text NOT NULL,
  request_hash text NOT NULL,
  order_id text NOT NULL,
  state text NOT NULL,
  response_status integer,
  response_body text,
  locked_until timestamptz NOT NULL,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  PRIMARY KEY (partner_id, environment, idempotency_key)
);
CREATE INDEX IF NOT EXISTS idempotency_keys_expiry ON idempotency_keys (expires_at);
`,
};

/** Expired keys are found by page ranges (BRIN), not by a B-tree entry per key (decision 0151). */
export const IDEMPOTENCY_EXPIRY_RANGES_SCHEMA: SchemaScript = {
  name: 'idempotency-expiry-ranges',
  sql: `
DROP INDEX IF EXISTS idempotency_keys_expiry;
CREATE INDEX IF NOT EXISTS idempotency_keys_expiry_ranges ON idempotency_keys USING brin (expires_at) WITH (autosummarize = on);
`,
};
