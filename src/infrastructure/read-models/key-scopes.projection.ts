import { RecordedEvent } from '../../application/ports/event-store.port';
import { PartnerEvent } from '../../domain/partner/partner.events';
import { SqlProjection } from '../projections/sql-projection';
import { SqlExecutor } from '../sql/sql-database';

/**
 * The terms of restricted keys (label, scope, caps, expiry), beside their hashes in rm_api_keys.
 * A read model of its own, so a database of an earlier release gets the table at start, in the
 * migration transaction, and key lookups (which join it) work without waiting for a rebuild.
 */
export const keyScopesProjection: SqlProjection<PartnerEvent> = {
  name: 'key-scopes',
  schemaVersion: 1,
  schema: {
    name: 'key-scopes',
    sql: `
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
  handles: new Set(['ScopedKeyCreated', 'ScopedKeyRevoked']),

  async apply(event: RecordedEvent<PartnerEvent>, tx: SqlExecutor): Promise<void> {
    switch (event.type) {
      case 'ScopedKeyCreated': {
        const { keyId, partnerId, environment, label, scope, perOrderMax, dailyMax, currency, expiresAt, createdAt } =
          event.data;
        await tx.query(
          `INSERT INTO rm_key_scopes (key_id, partner_id, environment, label, scope, per_order_max, daily_max, currency, expires_at, created_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT (key_id) DO NOTHING`,
          [keyId, partnerId, environment, label, scope, perOrderMax, dailyMax, currency, expiresAt, createdAt],
        );
        return;
      }
      case 'ScopedKeyRevoked':
        await tx.query('UPDATE rm_key_scopes SET revoked_at = $2 WHERE key_id = $1', [
          event.data.keyId,
          event.data.revokedAt,
        ]);
        return;
      default:
        return;
    }
  },
};
