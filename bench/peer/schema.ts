/**
 * The peer's tables, in the bench database beside the service's (every name starts with crud_,
 * so the bench can tell whose rows were written). A plain design: the wallet is a balance row,
 * the order row is the debit, the Idempotency-Key row holds the first answer, the outbox holds
 * the settlement still to do.
 */
export const PEER_SCHEMA = `
CREATE TABLE IF NOT EXISTS crud_partners (
  partner_id text PRIMARY KEY,
  name text NOT NULL,
  corridor text NOT NULL,
  kyc_status text NOT NULL DEFAULT 'pending',
  rate_limit_per_minute integer NOT NULL DEFAULT 60,
  ip_allowlist text[] NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE IF NOT EXISTS crud_api_keys (
  key_hash text PRIMARY KEY,
  key_id text NOT NULL UNIQUE,
  partner_id text NOT NULL REFERENCES crud_partners,
  environment text NOT NULL,
  active boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE IF NOT EXISTS crud_wallets (
  partner_id text NOT NULL REFERENCES crud_partners,
  environment text NOT NULL,
  currency text NOT NULL,
  balance numeric(20, 2) NOT NULL CHECK (balance >= 0),
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (partner_id, environment)
);
CREATE TABLE IF NOT EXISTS crud_wallet_credits (
  credit_id bigserial PRIMARY KEY,
  partner_id text NOT NULL,
  environment text NOT NULL,
  amount numeric(20, 2) NOT NULL CHECK (amount > 0),
  reference text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE IF NOT EXISTS crud_rate_limit_windows (
  key_id text NOT NULL,
  window_start timestamptz NOT NULL,
  hits integer NOT NULL,
  PRIMARY KEY (key_id, window_start)
);
CREATE TABLE IF NOT EXISTS crud_orders (
  order_id text PRIMARY KEY,
  partner_id text NOT NULL,
  environment text NOT NULL,
  idempotency_key text NOT NULL,
  operator_id integer NOT NULL,
  phone text NOT NULL,
  amount numeric(20, 2) NOT NULL CHECK (amount > 0),
  currency text NOT NULL,
  balance_after numeric(20, 2) NOT NULL,
  reference text,
  status text NOT NULL,
  operator_ref text,
  settled_at timestamptz,
  refunded_at timestamptz,
  created_at timestamptz NOT NULL
) WITH (fillfactor = 70);
CREATE TABLE IF NOT EXISTS crud_idempotency_keys (
  partner_id text NOT NULL,
  environment text NOT NULL,
  idempotency_key text NOT NULL,
  request_hash text NOT NULL,
  order_id text NOT NULL,
  status_code integer NOT NULL,
  response_body text NOT NULL,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  PRIMARY KEY (partner_id, environment, idempotency_key)
);
CREATE TABLE IF NOT EXISTS crud_outbox (
  outbox_id bigserial PRIMARY KEY,
  order_id text NOT NULL,
  step text NOT NULL,
  due_at timestamptz NOT NULL
);
CREATE INDEX IF NOT EXISTS crud_outbox_due ON crud_outbox (due_at);
`;

/** Every table of the peer, for the bench's row counts. */
export const PEER_TABLE_PREFIX = 'crud_';
