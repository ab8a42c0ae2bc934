import { RecordedEvent } from '../../application/ports/event-store.port';
import { PartnerEvent } from '../../domain/partner/partner.events';
import { SqlProjection } from '../projections/sql-projection';
import { SqlExecutor } from '../sql/sql-database';

/** Partners and the keyed hashes of their API keys (never the keys), restricted keys included (their terms: key-scopes). */
export const partnersProjection: SqlProjection = {
  name: 'partners',
  schemaVersion: 1,
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
`,
  },
  handles: new Set([
    'PartnerOnboarded',
    'ApiKeyIssued',
    'ApiKeyRevoked',
    'ScopedKeyCreated',
    'ScopedKeyRevoked',
    'KycStatusChanged',
  ]),

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
      case 'ApiKeyIssued':
        await insertActiveKey(tx, partnerEvent.data, partnerEvent.data.issuedAt);
        return;
      case 'ScopedKeyCreated':
        await insertActiveKey(tx, partnerEvent.data, partnerEvent.data.createdAt);
        return;
      case 'ScopedKeyRevoked':
        await tx.query('UPDATE rm_api_keys SET active = false, revoked_at = $2 WHERE key_id = $1', [
          partnerEvent.data.keyId,
          partnerEvent.data.revokedAt,
        ]);
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

/** A key issued or created: active from `issuedAt` (the same row for full and scoped keys). */
async function insertActiveKey(
  tx: SqlExecutor,
  key: { keyHash: string; keyId: string; partnerId: string; environment: string },
  issuedAt: string,
): Promise<void> {
  await tx.query(
    `INSERT INTO rm_api_keys (key_hash, key_id, partner_id, environment, active, issued_at)
     VALUES ($1, $2, $3, $4, true, $5) ON CONFLICT (key_hash) DO NOTHING`,
    [key.keyHash, key.keyId, key.partnerId, key.environment, issuedAt],
  );
}
