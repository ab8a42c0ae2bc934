import { RecordedEvent } from '../../application/ports/event-store.port';
import { applySettingsChange, resealSecrets, rotateSecret } from '../../domain/partner/partner-settings.fold';
import { PartnerEvent } from '../../domain/partner/partner.events';
import { PartnerSettings, defaultSettings } from '../../domain/partner/partner-settings';
import { SqlProjection } from '../projections/sql-projection';
import { SqlExecutor } from '../sql/sql-database';

export const partnerSettingsProjection: SqlProjection<PartnerEvent> = {
  name: 'partner-settings',
  schemaVersion: 1,
  schema: {
    name: 'partner-settings',
    sql: `
CREATE TABLE IF NOT EXISTS rm_partner_settings (
  partner_id text NOT NULL,
  environment text NOT NULL,
  settings jsonb NOT NULL,
  revision bigint NOT NULL,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (partner_id, environment)
);
`,
  },
  handles: new Set(['PartnerSettingsChanged', 'WebhookSecretRotated', 'WebhookSecretsResealed']),

  async apply(event: RecordedEvent<PartnerEvent>, tx: SqlExecutor): Promise<void> {
    if (
      event.type !== 'PartnerSettingsChanged' &&
      event.type !== 'WebhookSecretRotated' &&
      event.type !== 'WebhookSecretsResealed'
    )
      return;
    const { partnerId, environment } = event.data;
    const rows = await tx.query<{ settings: PartnerSettings; revision: string }>(
      'SELECT settings, revision::text AS revision FROM rm_partner_settings WHERE partner_id = $1 AND environment = $2 FOR UPDATE',
      [partnerId, environment],
    );
    if (rows[0] && Number(rows[0].revision) >= event.revision) return;
    const current = rows[0]?.settings ?? defaultSettings();
    const next =
      event.type === 'PartnerSettingsChanged'
        ? applySettingsChange(current, event.data.changes)
        : event.type === 'WebhookSecretRotated'
          ? rotateSecret(current, event.data)
          : resealSecrets(current, event.data);
    await tx.query(
      `INSERT INTO rm_partner_settings (partner_id, environment, settings, revision, updated_at) VALUES ($1, $2, $3::jsonb, $4, $5)
       ON CONFLICT (partner_id, environment) DO UPDATE SET settings = EXCLUDED.settings, revision = EXCLUDED.revision, updated_at = EXCLUDED.updated_at`,
      [partnerId, environment, JSON.stringify(next), event.revision, event.metadata.occurredAt],
    );
  },
};
