import { Corridor } from '../corridor/corridor';
import { Environment } from '../shared/environment';
import { Money } from '../money/money';
import { KycStatus } from './partner.events';
import { KeyScope } from './scoped-key';
import { PartnerSettings, SettingsChange } from './partner-settings';

export interface IssuedKey {
  keyId: string;
  keyHash: string;
}

export interface PartnerState {
  partnerId: string | null;
  name: string | null;
  corridor: Corridor | null;
  kycStatus: KycStatus;
  activeKeys: Partial<Record<Environment, string>>;
  /** Restricted keys by key id, with their environment, label and whether they still work (expiry aside). */
  scopedKeys: Record<string, { environment: Environment; label: string; active: boolean }>;
  settings: Record<Environment, PartnerSettings>;
}

export type PartnerCommand =
  | { type: 'OnboardPartner'; partnerId: string; name: string; corridor: Corridor; sandboxKey: IssuedKey; at: string }
  | {
      type: 'ChangeKycStatus';
      status: 'approved' | 'suspended';
      /** Issued on the first approval; null: the partner claims its first live key itself (ClaimLiveKey). */
      candidateLiveKey: IssuedKey | null;
      at: string;
    }
  | { type: 'ClaimLiveKey'; key: IssuedKey; /** The sandbox main key that asked. */ mainKeyUsed: string; at: string }
  | {
      type: 'RegenerateKey';
      environment: Environment;
      key: IssuedKey;
      /** False (every caller's default): the environment's restricted keys go with the main key (decision 0083). */
      keepRestrictedKeys: boolean;
      at: string;
    }
  | {
      type: 'CreateScopedKey';
      environment: Environment;
      key: IssuedKey;
      label: string;
      scope: KeyScope;
      /** In the wallet currency of the partner's corridor; null: no such cap (always null for read_only). */
      perOrderMax: Money | null;
      dailyMax: Money | null;
      /** Requests per minute of its own, at most the environment's; null: only the environment's limit. */
      rateLimitPerMinute: number | null;
      expiresAt: string | null;
      /** The partner's main key that made the request; null: an operator. */
      mainKeyUsed: string | null;
      at: string;
    }
  | { type: 'RevokeScopedKey'; keyId: string; reason: string; at: string }
  /** A key in use found under an older server secret: its hash under the newest. */
  | { type: 'RehashKey'; keyId: string; environment: Environment; keyHash: string; at: string }
  /** The environment's webhook secrets sealed again under the newest server secret, by secret id. */
  | {
      type: 'ResealWebhookSecrets';
      environment: Environment;
      secrets: { secretId: string; sealedSecret: string }[];
      at: string;
    }
  | {
      type: 'ConfigurePartner';
      environment: Environment;
      changes: SettingsChange;
      /** Rotate (or create) the webhook secret with this sealed candidate. */
      newSecret: { secretId: string; sealed: string } | null;
      /** The partner's main key that made the request; null: an operator. */
      mainKeyUsed: string | null;
      at: string;
    };
