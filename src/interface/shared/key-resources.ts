import type { CreatedScopedKey } from '../../application/keys/create-scoped-key';
import type { ScopedKeyInUse, ScopedKeyList } from '../../application/keys/list-scoped-keys';
import { KeyProvenance } from '../../application/ports/read-models.port';
import { Currency } from '../../domain/money/currency';
import { KeyScope } from '../../domain/partner/scoped-key';
import { Actor } from '../../domain/shared/actor';
import { Environment } from '../../domain/shared/environment';

/** The KeyCreator resource: who created a key, the actor recorded on its creation event. */
export interface KeyCreatorResource {
  type: Actor['type'];
  id: string;
}

/** The ScopedKey resource: a restricted key and its usage, as partners and operators see it. */
export interface ScopedKeyResource {
  key_id: string;
  label: string;
  environment: Environment;
  scope: KeyScope;
  per_order_max: string | null;
  daily_max: string | null;
  currency: Currency;
  rate_limit: number | null;
  expires_at: string | null;
  status: ScopedKeyInUse['status'];
  created_at: string;
  created_by: KeyCreatorResource | null;
  last_used_at: string | null;
  revoked_at: string | null;
  revoke_reason: string | null;
  spent_last_24h: string;
  refusals_last_24h: number;
}

/** A key just created: the ScopedKey resource with the key itself, shown this once. */
export interface CreatedScopedKeyResource extends ScopedKeyResource {
  api_key: string;
}

/** The MainKey resource: the environment's main key, never the key, only who issued it and its use. */
export interface MainKeyResource {
  key_id: string;
  created_at: string;
  created_by: KeyCreatorResource | null;
  last_used_at: string | null;
}

/** The ScopedKeyList resource: the environment's main key and its restricted keys. */
export interface ScopedKeyListResource {
  environment: Environment;
  currency: Currency;
  main_key: MainKeyResource | null;
  keys: ScopedKeyResource[];
}

/** The RevokedKey resource: the key is refused from this answer on. */
export interface RevokedKeyResource {
  key_id: string;
  revoked: true;
}

const createdByResource = (actor: Actor | null): KeyCreatorResource | null =>
  actor ? { type: actor.type, id: actor.id } : null;

/** A restricted key as partners and operators see it (never the key or its hash). */
export const scopedKeyResource = (key: ScopedKeyInUse): ScopedKeyResource => ({
  key_id: key.keyId,
  label: key.label,
  environment: key.environment,
  scope: key.scope,
  per_order_max: key.perOrderMax,
  daily_max: key.dailyMax,
  currency: key.currency,
  rate_limit: key.rateLimitPerMinute,
  expires_at: key.expiresAt,
  status: key.status,
  created_at: key.createdAt,
  created_by: createdByResource(key.createdBy),
  last_used_at: key.lastUsedAt,
  revoked_at: key.revokedAt,
  revoke_reason: key.revokeReason,
  spent_last_24h: key.spentLast24h,
  refusals_last_24h: key.refusalsLast24h,
});

export const createdScopedKeyResource = (key: CreatedScopedKey): CreatedScopedKeyResource => ({
  ...scopedKeyResource(key),
  api_key: key.apiKey,
});

const mainKeyResource = (key: KeyProvenance): MainKeyResource => ({
  key_id: key.keyId,
  created_at: key.createdAt,
  created_by: createdByResource(key.createdBy),
  last_used_at: key.lastUsedAt,
});

export const scopedKeyListResource = (list: ScopedKeyList): ScopedKeyListResource => ({
  environment: list.environment,
  currency: list.currency,
  main_key: list.mainKey ? mainKeyResource(list.mainKey) : null,
  keys: list.keys.map(scopedKeyResource),
});

export const revokedKeyResource = (keyId: string): RevokedKeyResource => ({ key_id: keyId, revoked: true });
