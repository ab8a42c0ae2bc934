import { Corridor } from '../corridor/corridor';
import { Currency } from '../money/currency';
import { Environment } from '../shared/environment';
import { SettingsChange } from './partner-settings';
import { KeyScope } from './scoped-key';
import { EventStream, EventTypeTable } from '../shared/event-types';

export type KycStatus = 'pending' | 'approved' | 'suspended';

export type PartnerOnboarded = {
  type: 'PartnerOnboarded';
  data: { partnerId: string; name: string; corridor: Corridor; onboardedAt: string };
};

/** Only the keyed hash of a key is ever recorded; the key itself is shown once and forgotten. */
export type ApiKeyIssued = {
  type: 'ApiKeyIssued';
  data: { partnerId: string; keyId: string; environment: Environment; keyHash: string; issuedAt: string };
};

export type ApiKeyRevoked = {
  type: 'ApiKeyRevoked';
  data: { partnerId: string; keyId: string; environment: Environment; reason: string; revokedAt: string };
};

/**
 * A restricted key besides the environment's main key: read only, or transact under caps that
 * are decimal strings in `currency` (the wallet currency of the environment); null: no such cap.
 */
export type ScopedKeyCreated = {
  type: 'ScopedKeyCreated';
  data: {
    partnerId: string;
    keyId: string;
    environment: Environment;
    keyHash: string;
    label: string;
    scope: KeyScope;
    perOrderMax: string | null;
    dailyMax: string | null;
    currency: Currency;
    /** Requests per minute of the key's own, below the environment's; absent (keys made before it existed): none. */
    rateLimitPerMinute?: number;
    expiresAt: string | null;
    createdAt: string;
  };
};

/** `reason`: 'revoked' (by the partner or an operator) or 'main_key_regenerated' (with the environment's main key). */
export type ScopedKeyRevoked = {
  type: 'ScopedKeyRevoked';
  data: { partnerId: string; keyId: string; environment: Environment; reason: string; revokedAt: string };
};

export type KycStatusChanged = {
  type: 'KycStatusChanged';
  data: { partnerId: string; status: Exclude<KycStatus, 'pending'>; changedAt: string };
};

/** Only the fields that changed are present. */
export type PartnerSettingsChanged = {
  type: 'PartnerSettingsChanged';
  data: { partnerId: string; environment: Environment; changes: SettingsChange; changedAt: string };
};

/** The new secret is stored sealed; the previous one keeps signing until `previousValidUntil`. */
export type WebhookSecretRotated = {
  type: 'WebhookSecretRotated';
  data: {
    partnerId: string;
    environment: Environment;
    secretId: string;
    sealedSecret: string;
    previousValidUntil: string | null;
    rotatedAt: string;
  };
};

/**
 * A key found under an older server secret of the ring, hashed again under the newest at its use
 * (the key itself is known only while it is presented), so the older secret can be dropped.
 */
export type ApiKeyRehashed = {
  type: 'ApiKeyRehashed';
  data: { partnerId: string; keyId: string; environment: Environment; keyHash: string; rehashedAt: string };
};

/** Webhook secrets sealed again under the newest server secret, each by its id; nothing else changes. */
export type WebhookSecretsResealed = {
  type: 'WebhookSecretsResealed';
  data: {
    partnerId: string;
    environment: Environment;
    secrets: { secretId: string; sealedSecret: string }[];
    resealedAt: string;
  };
};

export type PartnerEvent =
  | PartnerOnboarded
  | ApiKeyRehashed
  | WebhookSecretsResealed
  | ApiKeyIssued
  | ApiKeyRevoked
  | ScopedKeyCreated
  | ScopedKeyRevoked
  | KycStatusChanged
  | PartnerSettingsChanged
  | WebhookSecretRotated;

export const PARTNER_EVENTS: EventTypeTable<PartnerEvent> = {
  PartnerOnboarded: true,
  ApiKeyIssued: true,
  ApiKeyRevoked: true,
  ScopedKeyCreated: true,
  ScopedKeyRevoked: true,
  KycStatusChanged: true,
  PartnerSettingsChanged: true,
  WebhookSecretRotated: true,
  ApiKeyRehashed: true,
  WebhookSecretsResealed: true,
};

export const partnerStreamId = (partnerId: string): string => `partner-${partnerId}`;

export const partnerStream = (partnerId: string): EventStream<PartnerEvent> => ({
  id: partnerStreamId(partnerId),
  holds: PARTNER_EVENTS,
});
