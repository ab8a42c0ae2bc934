import { PartnerSettings } from '../../domain/partner/partner-settings';
import { Environment } from '../../domain/shared/environment';

/** Settings as partners and operators see them: secrets never, only whether one is set and rotating. */
export const settingsResource = (
  environment: Environment,
  settings: PartnerSettings,
  now: Date,
): Record<string, unknown> => ({
  environment,
  webhook_url: settings.webhookUrl,
  webhook_secret_set: settings.webhookSecrets.length > 0,
  previous_webhook_secret_valid_until:
    settings.webhookSecrets.find((secret) => secret.validUntil !== null && new Date(secret.validUntil) > now)
      ?.validUntil ?? null,
  ip_allowlist: settings.ipAllowlist,
  rate_limit_per_minute: settings.rateLimitPerMinute,
  low_balance_threshold: settings.lowBalanceThreshold ?? null,
});
