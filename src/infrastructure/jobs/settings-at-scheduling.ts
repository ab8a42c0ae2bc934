import { PartnerScope, SettingsAtScheduling } from '../../application/ports/reaction.port';
import { SqlExecutor } from '../sql/sql-database';

const scopeOf = (partner: PartnerScope): string => `${partner.partnerId} ${partner.environment}`;

/** What the reactions ask of a partner's settings. */
interface SettingsAsked {
  withWebhookUrl: boolean;
  lowBalanceThreshold: string | undefined;
}

const NONE: SettingsAsked = { withWebhookUrl: false, lowBalanceThreshold: undefined };

/**
 * The settings read model as the reactions' transaction sees it: each partner of the batch read once, whichever
 * question comes first (the webhooks and the low-balance notice usually ask about the same partners).
 */
export function settingsAtScheduling(tx: SqlExecutor): SettingsAtScheduling {
  const known = new Map<string, SettingsAsked>();
  const settingsOf = async (partners: readonly PartnerScope[]): Promise<(partner: PartnerScope) => SettingsAsked> => {
    const unread = [...new Map(partners.map((partner) => [scopeOf(partner), partner])).entries()].filter(
      ([scope]) => !known.has(scope),
    );
    if (unread.length > 0) {
      const rows = await tx.query<{
        partner_id: string;
        environment: string;
        webhook_url: boolean;
        threshold: string | null;
      }>(
        `SELECT s.partner_id, s.environment, s.settings ->> 'webhookUrl' IS NOT NULL AS webhook_url,
                s.settings ->> 'lowBalanceThreshold' AS threshold
           FROM rm_partner_settings s
           JOIN unnest($1::text[], $2::text[]) AS w(partner_id, environment) ON s.partner_id = w.partner_id AND s.environment = w.environment`,
        [unread.map(([, scope]) => scope.partnerId), unread.map(([, scope]) => scope.environment)],
      );
      for (const [scope] of unread) known.set(scope, NONE);
      for (const row of rows)
        known.set(scopeOf({ partnerId: row.partner_id, environment: row.environment }), {
          withWebhookUrl: row.webhook_url,
          lowBalanceThreshold: row.threshold ?? undefined,
        });
    }
    return (partner) => known.get(scopeOf(partner)) ?? NONE;
  };
  return {
    async withWebhookUrl(partners) {
      if (partners.length === 0) return () => false;
      const settings = await settingsOf(partners);
      return (partner) => settings(partner).withWebhookUrl;
    },
    async lowBalanceThresholds(partners) {
      if (partners.length === 0) return () => undefined;
      const settings = await settingsOf(partners);
      return (partner) => settings(partner).lowBalanceThreshold;
    },
  };
}
