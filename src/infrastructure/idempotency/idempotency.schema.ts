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
