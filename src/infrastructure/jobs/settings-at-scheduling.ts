import { PartnerScope, SettingsAtScheduling } from '../../application/ports/reaction.port';
import { SqlExecutor } from '../sql/sql-database';

const scopeOf = (partner: PartnerScope): string => `${partner.partnerId} ${partner.environment}`;

const distinct = (partners: readonly PartnerScope[]): PartnerScope[] => [
  ...new Map(partners.map((partner) => [scopeOf(partner), partner])).values(),
];

/** The settings read model as the reactions' transaction sees it: one query per question and batch. */
export function settingsAtScheduling(tx: SqlExecutor): SettingsAtScheduling {
  return {
    async withWebhookUrl(partners) {
      if (partners.length === 0) return () => false;
      const scopes = distinct(partners);
      const rows = await tx.query<{ partner_id: string; environment: string }>(
        `SELECT s.partner_id, s.environment
           FROM rm_partner_settings s
           JOIN unnest($1::text[], $2::text[]) AS w(partner_id, environment) ON s.partner_id = w.partner_id AND s.environment = w.environment
          WHERE s.settings ->> 'webhookUrl' IS NOT NULL`,
        [scopes.map((scope) => scope.partnerId), scopes.map((scope) => scope.environment)],
      );
      const withUrl = new Set(rows.map((row) => scopeOf({ partnerId: row.partner_id, environment: row.environment })));
      return (partner) => withUrl.has(scopeOf(partner));
    },
    async lowBalanceThresholds(partners) {
      if (partners.length === 0) return () => undefined;
      const scopes = distinct(partners);
      const rows = await tx.query<{ partner_id: string; environment: string; threshold: string }>(
        `SELECT s.partner_id, s.environment, s.settings ->> 'lowBalanceThreshold' AS threshold
           FROM rm_partner_settings s
           JOIN unnest($1::text[], $2::text[]) AS w(partner_id, environment) ON s.partner_id = w.partner_id AND s.environment = w.environment
          WHERE s.settings ->> 'lowBalanceThreshold' IS NOT NULL`,
        [scopes.map((scope) => scope.partnerId), scopes.map((scope) => scope.environment)],
      );
      const thresholds = new Map(
        rows.map((row) => [scopeOf({ partnerId: row.partner_id, environment: row.environment }), row.threshold]),
      );
      return (partner) => thresholds.get(scopeOf(partner));
    },
  };
}
