import { PartnerSettings, rateLimitCeiling } from '../../domain/partner/partner-settings';
import { Environment } from '../../domain/shared/environment';

/** The settings of one environment as partners and operators see them: secrets never, only whether one is set and rotating. */
export interface EnvironmentSettingsResource {
  environment: Environment;
  webhook_url: string | null;
  webhook_secret_set: boolean;
  previous_webhook_secret_valid_until: string | null;
  ip_allowlist: string[];
  rate_limit_per_minute: number;
  /** The most the partner may set `rate_limit_per_minute` to: the back office's ceiling, or the environment's default. */
  rate_limit_ceiling_per_minute: number;
  low_balance_threshold: string | null;
}

/** The PartnerSettings resource: a partner's settings of one environment. */
export interface PartnerSettingsResource extends EnvironmentSettingsResource {
  partner_id: string;
  /** Only in the answer that created or rotated the secret: shown once. */
  webhook_secret?: string;
}

export const settingsResource = (
  environment: Environment,
  settings: PartnerSettings,
  now: Date,
): EnvironmentSettingsResource => ({
  environment,
  webhook_url: settings.webhookUrl,
  webhook_secret_set: settings.webhookSecrets.length > 0,
  previous_webhook_secret_valid_until:
    settings.webhookSecrets.find((secret) => secret.validUntil !== null && new Date(secret.validUntil) > now)
      ?.validUntil ?? null,
  ip_allowlist: settings.ipAllowlist,
  rate_limit_per_minute: settings.rateLimitPerMinute,
  rate_limit_ceiling_per_minute: rateLimitCeiling(settings, environment),
  low_balance_threshold: settings.lowBalanceThreshold ?? null,
});
