import type { ConfiguredSettings } from '../../application/settings/configure-partner';
import { EnvironmentSettings } from '../../application/settings/environment-settings';
import { Environment } from '../../domain/shared/environment';

/** The PartnerSettings resource: a partner's settings of one environment, secrets never, only whether one is set. */
export interface PartnerSettingsResource {
  partner_id: string;
  environment: Environment;
  webhook_url: string | null;
  webhook_secret_set: boolean;
  previous_webhook_secret_valid_until: string | null;
  ip_allowlist: string[];
  rate_limit_per_minute: number;
  rate_limit_ceiling_per_minute: number;
  low_balance_threshold: string | null;
  /** Only in the answer that created or rotated the secret: shown once. */
  webhook_secret?: string;
}

export const partnerSettingsResource = (settings: EnvironmentSettings): PartnerSettingsResource => ({
  partner_id: settings.partnerId,
  environment: settings.environment,
  webhook_url: settings.webhookUrl,
  webhook_secret_set: settings.webhookSecretSet,
  previous_webhook_secret_valid_until: settings.previousWebhookSecretValidUntil,
  ip_allowlist: settings.ipAllowlist,
  rate_limit_per_minute: settings.rateLimitPerMinute,
  rate_limit_ceiling_per_minute: settings.rateLimitCeilingPerMinute,
  low_balance_threshold: settings.lowBalanceThreshold,
});

export const configuredSettingsResource = (settings: ConfiguredSettings): PartnerSettingsResource =>
  settings.newWebhookSecret === null
    ? partnerSettingsResource(settings)
    : { ...partnerSettingsResource(settings), webhook_secret: settings.newWebhookSecret };
