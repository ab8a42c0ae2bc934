import { RecordedEvent } from '../../application/ports/event-store.port';
import { PartnerEvent } from '../../domain/partner/partner.events';
import { SqlProjection } from '../projections/sql-projection';
import { SqlExecutor } from '../sql/sql-database';

/**
 * Partners and the keyed hashes of their API keys. A key's row is its whole record, kind and restricted terms alike
 * (decision 0084): constraints refuse a restricted row without terms and a main row with any, and a unique index allows
 * at most one active main key per environment.
 */
export const partnersProjection: SqlProjection<PartnerEvent> = {
  name: 'partners',
  schemaVersion: 2,
  schema: {
    name: 'partners',
    sql: `
CREATE TABLE IF NOT EXISTS rm_partners (
  partner_id text PRIMARY KEY,
  name text NOT NULL,
  corridor text NOT NULL,
  kyc_status text NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE TABLE IF NOT EXISTS rm_api_keys (
  key_hash text PRIMARY KEY,
  key_id text NOT NULL UNIQUE,
  partner_id text NOT NULL,
  environment text NOT NULL,
  active boolean NOT NULL,
  issued_at timestamptz NOT NULL,
  revoked_at timestamptz,
  kind text NOT NULL,
  label text,
  scope text,
  per_order_max text,
  daily_max text,
  currency text,
  expires_at timestamptz,
  rate_limit integer,
  created_by_type text,
  created_by_id text,
  revoke_reason text,
  CONSTRAINT rm_api_keys_terms CHECK (
    (kind = 'main' AND label IS NULL AND scope IS NULL AND per_order_max IS NULL AND daily_max IS NULL
      AND currency IS NULL AND expires_at IS NULL AND rate_limit IS NULL)
    OR (kind = 'restricted' AND label IS NOT NULL AND currency IS NOT NULL
      AND (scope = 'transact' OR (scope = 'read_only' AND per_order_max IS NULL AND daily_max IS NULL))
      AND (rate_limit IS NULL OR rate_limit > 0))
  )
);
CREATE INDEX IF NOT EXISTS rm_api_keys_partner ON rm_api_keys (partner_id, environment, issued_at);
CREATE UNIQUE INDEX IF NOT EXISTS rm_api_keys_one_main ON rm_api_keys (partner_id, environment) WHERE kind = 'main' AND active;
`,
  },
  handles: new Set([
    'PartnerOnboarded',
    'ApiKeyIssued',
    'ApiKeyRevoked',
    'ScopedKeyCreated',
    'ScopedKeyRevoked',
    'KycStatusChanged',
    'ApiKeyRehashed',
  ]),

  async apply(event: RecordedEvent<PartnerEvent>, tx: SqlExecutor): Promise<void> {
    const { actor } = event.metadata;
    switch (event.type) {
      case 'PartnerOnboarded': {
        const { partnerId, name, corridor, onboardedAt } = event.data;
        await tx.query(
          `INSERT INTO rm_partners (partner_id, name, corridor, kyc_status, created_at, updated_at)
           VALUES ($1, $2, $3, 'pending', $4, $4) ON CONFLICT (partner_id) DO NOTHING`,
          [partnerId, name, corridor, onboardedAt],
        );
        return;
      }
      case 'KycStatusChanged':
        await tx.query('UPDATE rm_partners SET kyc_status = $2, updated_at = $3 WHERE partner_id = $1', [
          event.data.partnerId,
          event.data.status,
          event.data.changedAt,
        ]);
        return;
      case 'ApiKeyRehashed': {
        const { keyHash, keyId } = event.data;
        await tx.query('UPDATE rm_api_keys SET key_hash = $1 WHERE key_id = $2', [keyHash, keyId]);
        return;
      }
      case 'ApiKeyIssued': {
        const { keyHash, keyId, partnerId, environment, issuedAt } = event.data;
        await tx.query(
          `INSERT INTO rm_api_keys (key_hash, key_id, partner_id, environment, active, issued_at, kind, created_by_type, created_by_id)
           VALUES ($1, $2, $3, $4, true, $5, 'main', $6, $7) ON CONFLICT (key_hash) DO NOTHING`,
          [keyHash, keyId, partnerId, environment, issuedAt, actor.type, actor.id],
        );
        return;
      }
      case 'ScopedKeyCreated': {
        const { data } = event;
        await tx.query(
          `INSERT INTO rm_api_keys (key_hash, key_id, partner_id, environment, active, issued_at, kind,
             label, scope, per_order_max, daily_max, currency, expires_at, rate_limit, created_by_type, created_by_id)
           VALUES ($1, $2, $3, $4, true, $5, 'restricted', $6, $7, $8, $9, $10, $11, $12, $13, $14)
           ON CONFLICT (key_hash) DO NOTHING`,
          [
            data.keyHash,
            data.keyId,
            data.partnerId,
            data.environment,
            data.createdAt,
            data.label,
            data.scope,
            data.perOrderMax,
            data.dailyMax,
            data.currency,
            data.expiresAt,
            data.rateLimitPerMinute ?? null,
            actor.type,
            actor.id,
          ],
        );
        return;
      }
      case 'ScopedKeyRevoked':
      case 'ApiKeyRevoked':
        await tx.query(
          'UPDATE rm_api_keys SET active = false, revoked_at = $2, revoke_reason = $3 WHERE key_id = $1 AND active',
          [event.data.keyId, event.data.revokedAt, event.data.reason],
        );
        return;
    }
  },
};
