import { SchemaScript } from '../sql/migrations';

/** Fills a v1 `rm_api_keys`' new columns from `rm_key_scopes` until the `partners` v2 rebuild (decision 0084); rows without `kind` fail closed. */
export const KEY_RECORDS_SCHEMA: SchemaScript = {
  name: 'key-records',
  sql: `
CREATE TABLE IF NOT EXISTS api_key_last_use (
  key_id text PRIMARY KEY,
  last_used_at timestamptz NOT NULL
);
DO $$
BEGIN
  IF to_regclass('rm_api_keys') IS NOT NULL THEN
    ALTER TABLE rm_api_keys
      ADD COLUMN IF NOT EXISTS kind text, ADD COLUMN IF NOT EXISTS label text, ADD COLUMN IF NOT EXISTS scope text,
      ADD COLUMN IF NOT EXISTS per_order_max text, ADD COLUMN IF NOT EXISTS daily_max text,
      ADD COLUMN IF NOT EXISTS currency text, ADD COLUMN IF NOT EXISTS expires_at timestamptz,
      ADD COLUMN IF NOT EXISTS rate_limit integer, ADD COLUMN IF NOT EXISTS created_by_type text,
      ADD COLUMN IF NOT EXISTS created_by_id text, ADD COLUMN IF NOT EXISTS revoke_reason text
    ; IF to_regclass('rm_key_scopes') IS NOT NULL THEN
      UPDATE rm_api_keys k
         SET kind = 'restricted', label = s.label, scope = s.scope, per_order_max = s.per_order_max,
             daily_max = s.daily_max, currency = s.currency, expires_at = s.expires_at
        FROM rm_key_scopes s WHERE s.key_id = k.key_id AND k.kind IS NULL
    ; END IF
    ; UPDATE rm_api_keys SET kind = 'main' WHERE kind IS NULL
    ; CREATE INDEX IF NOT EXISTS rm_api_keys_partner ON rm_api_keys (partner_id, environment, issued_at)
    ; END IF
  ; END
$$;
`,
};
