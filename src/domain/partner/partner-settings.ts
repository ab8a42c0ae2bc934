import { Currency } from '../money/currency';
import { Money } from '../money/money';
import { Environment } from '../shared/environment';

/** A webhook signing secret, kept sealed (encrypted at rest); during a rotation the old one signs until `validUntil`. */
export interface WebhookSecret {
  secretId: string;
  sealed: string;
  validUntil: string | null;
}

export interface PartnerSettings {
  webhookUrl: string | null;
  ipAllowlist: string[];
  rateLimitPerMinute: number;
  /**
   * Set by the back office: the most the partner may raise its own `rateLimitPerMinute` to.
   * Absent: the environment's default ceiling.
   */
  rateLimitCeilingPerMinute?: number;
  /** Newest first. */
  webhookSecrets: WebhookSecret[];
  /**
   * A decimal string in the wallet's currency: the available balance falling below it announces
   * `wallet.low_balance`; null (or absent, in settings from before it existed) turns that off.
   */
  lowBalanceThreshold?: string | null;
}

export const DEFAULT_RATE_LIMIT_PER_MINUTE = 60;
/** How far a partner may raise its own limit until an operator sets a ceiling; sandbox keys work before KYC. */
export const DEFAULT_RATE_LIMIT_CEILING: Readonly<Record<Environment, number>> = { live: 600, sandbox: 120 };
export const MAX_RATE_LIMIT_PER_MINUTE = 100_000;
export const SECRET_ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;

export const defaultSettings = (): PartnerSettings => ({
  webhookUrl: null,
  ipAllowlist: [],
  rateLimitPerMinute: DEFAULT_RATE_LIMIT_PER_MINUTE,
  webhookSecrets: [],
});

export interface SettingsChange {
  webhookUrl?: string | null;
  ipAllowlist?: string[];
  rateLimitPerMinute?: number;
  rateLimitCeilingPerMinute?: number;
  lowBalanceThreshold?: string | null;
}

export const rateLimitCeiling = (settings: PartnerSettings, environment: Environment): number =>
  settings.rateLimitCeilingPerMinute ?? DEFAULT_RATE_LIMIT_CEILING[environment];

/** Live deliveries move real outcomes: only https. Sandbox also takes http so partners can test locally. */
export function webhookUrlProblem(url: string, environment: Environment): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'webhook_url: not a valid absolute URL';
  }
  if (url.length > 2048) return 'webhook_url: at most 2048 characters';
  if (parsed.username || parsed.password) return 'webhook_url: must not carry credentials';
  if (parsed.protocol === 'https:') return null;
  if (parsed.protocol === 'http:' && environment === 'sandbox') return null;
  return environment === 'live' ? 'webhook_url: live webhooks must use https' : 'webhook_url: must use http or https';
}

/** A low-balance threshold is a positive decimal string in the wallet's currency, at most its minor digits. */
export function lowBalanceThresholdProblem(text: string, currency: Currency): string | null {
  const threshold = Money.parse(text, currency);
  if (!threshold) return `low_balance_threshold: a decimal string in ${currency}, such as "500.00"`;
  if (threshold.minor <= 0n) return 'low_balance_threshold: must be more than zero (null turns the notice off)';
  return null;
}
