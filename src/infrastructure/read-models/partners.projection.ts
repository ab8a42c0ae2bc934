import { RecordedEvent } from '../../application/ports/event-store.port';
import { PartnerEvent } from '../../domain/partner/partner.events';
import { SqlProjection } from '../projections/sql-projection';
import { SqlExecutor } from '../sql/sql-database';

/** Partners and the keyed hashes of their API keys (never the keys). */
export const partnersProjection: SqlProjection = {
  name: 'partners',
  // 2: rm_key_scopes, the terms of restricted keys.
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
  revoked_at timestamptz
);
CREATE TABLE IF NOT EXISTS rm_key_scopes (
  key_id text PRIMARY KEY,
  partner_id text NOT NULL,
  environment text NOT NULL,
  label text NOT NULL,
  scope text NOT NULL,
  per_order_max text,
  daily_max text,
  currency text NOT NULL,
  expires_at timestamptz,
  created_at timestamptz NOT NULL,
  revoked_at timestamptz
);
CREATE INDEX IF NOT EXISTS rm_key_scopes_partner ON rm_key_scopes (partner_id, environment, created_at);
`,
  },
  handles: new Set(['PartnerOnboarded', 'ApiKeyIssued', 'ApiKeyRevoked', 'ScopedKeyCreated', 'ScopedKeyRevoked', 'KycStatusChanged']),

  async apply(event: RecordedEvent, tx: SqlExecutor): Promise<void> {
    const partnerEvent = { type: event.type, data: event.data } as PartnerEvent;
    switch (partnerEvent.type) {
      case 'PartnerOnboarded': {
        const { partnerId, name, corridor, onboardedAt } = partnerEvent.data;
        await tx.query(
          `INSERT INTO rm_partners (partner_id, name, corridor, kyc_status, created_at, updated_at)
           VALUES ($1, $2, $3, 'pending', $4, $4) ON CONFLICT (partner_id) DO NOTHING`,
          [partnerId, name, corridor, onboardedAt],
        );
        return;
      }
      case 'KycStatusChanged':
        await tx.query('UPDATE rm_partners SET kyc_status = $2, updated_at = $3 WHERE partner_id = $1', [
          partnerEvent.data.partnerId,
          partnerEvent.data.status,
          partnerEvent.data.changedAt,
        ]);
        return;
      case 'ApiKeyIssued': {
        const { keyHash, keyId, partnerId, environment, issuedAt } = partnerEvent.data;
        await tx.query(
          `INSERT INTO rm_api_keys (key_hash, key_id, partner_id, environment, active, issued_at)
           VALUES ($1, $2, $3, $4, true, $5) ON CONFLICT (key_hash) DO NOTHING`,
          [keyHash, keyId, partnerId, environment, issuedAt],
        );
        return;
      }
      case 'ScopedKeyCreated': {
        const { keyHash, keyId, partnerId, environment, createdAt } = partnerEvent.data;
        await tx.query(
          `INSERT INTO rm_api_keys (key_hash, key_id, partner_id, environment, active, issued_at)
           VALUES ($1, $2, $3, $4, true, $5) ON CONFLICT (key_hash) DO NOTHING`,
          [keyHash, keyId, partnerId, environment, createdAt],
        );
        const { label, scope, perOrderMax, dailyMax, currency, expiresAt } = partnerEvent.data;
        await tx.query(
          `INSERT INTO rm_key_scopes (key_id, partner_id, environment, label, scope, per_order_max, daily_max, currency, expires_at, created_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT (key_id) DO NOTHING`,
          [keyId, partnerId, environment, label, scope, perOrderMax, dailyMax, currency, expiresAt, createdAt],
        );
        return;
      }
      case 'ScopedKeyRevoked':
        await tx.query('UPDATE rm_api_keys SET active = false, revoked_at = $2 WHERE key_id = $1', [partnerEvent.data.keyId, partnerEvent.data.revokedAt]);
        await tx.query('UPDATE rm_key_scopes SET revoked_at = $2 WHERE key_id = $1', [partnerEvent.data.keyId, partnerEvent.data.revokedAt]);
        return;
      case 'ApiKeyRevoked':
        await tx.query('UPDATE rm_api_keys SET active = false, revoked_at = $2 WHERE key_id = $1', [
          partnerEvent.data.keyId,
          partnerEvent.data.revokedAt,
        ]);
        return;
    }
  },
};
