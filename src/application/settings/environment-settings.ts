import { PartnerSettings, rateLimitCeiling } from '../../domain/partner/partner-settings';
import { Environment } from '../../domain/shared/environment';

/** A partner's settings of one environment as they stand: secrets never, only whether one is set and rotating. */
export interface EnvironmentSettings {
  partnerId: string;
  environment: Environment;
  webhookUrl: string | null;
  webhookSecretSet: boolean;
  /** During a rotation: until when the previous secret also signs. */
  previousWebhookSecretValidUntil: string | null;
  ipAllowlist: string[];
  rateLimitPerMinute: number;
  /** The most the partner may set `rateLimitPerMinute` to: the back office's ceiling, or the environment's default. */
  rateLimitCeilingPerMinute: number;
  lowBalanceThreshold: string | null;
}

export const environmentSettings = (
  partnerId: string,
  environment: Environment,
  settings: PartnerSettings,
  now: Date,
): EnvironmentSettings => ({
  partnerId,
  environment,
  webhookUrl: settings.webhookUrl,
  webhookSecretSet: settings.webhookSecrets.length > 0,
  previousWebhookSecretValidUntil:
    settings.webhookSecrets.find((secret) => secret.validUntil !== null && new Date(secret.validUntil) > now)
      ?.validUntil ?? null,
  ipAllowlist: settings.ipAllowlist,
  rateLimitPerMinute: settings.rateLimitPerMinute,
  rateLimitCeilingPerMinute: rateLimitCeiling(settings, environment),
  lowBalanceThreshold: settings.lowBalanceThreshold ?? null,
});
