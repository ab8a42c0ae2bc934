import { Currency } from '../../domain/money/currency';
import { KeyScope } from '../../domain/partner/scoped-key';
import { Actor } from '../../domain/shared/actor';
import { Environment } from '../../domain/shared/environment';
import { KeyProvenance, ScopedKeyView } from '../ports/read-models.port';

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
  status: 'active' | 'expired' | 'revoked';
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

/** Who created a key, as the lists show it: the actor of its creation event. */
const createdByResource = (actor: Actor | null): KeyCreatorResource | null =>
  actor ? { type: actor.type, id: actor.id } : null;

/** A restricted key as partners and operators see it (never the key or its hash). */
export function scopedKeyResource(
  key: ScopedKeyView,
  usage: { spent24h: string; refusals24h: number },
  now: Date,
): ScopedKeyResource {
  const expired = key.expiresAt !== null && new Date(key.expiresAt).getTime() <= now.getTime();
  return {
    key_id: key.keyId,
    label: key.label,
    environment: key.environment,
    scope: key.scope,
    per_order_max: key.perOrderMax,
    daily_max: key.dailyMax,
    currency: key.currency,
    rate_limit: key.rateLimitPerMinute,
    expires_at: key.expiresAt,
    status: key.revokedAt !== null ? 'revoked' : expired ? 'expired' : 'active',
    created_at: key.createdAt,
    created_by: createdByResource(key.createdBy),
    last_used_at: key.lastUsedAt,
    revoked_at: key.revokedAt,
    revoke_reason: key.revokeReason,
    spent_last_24h: usage.spent24h,
    refusals_last_24h: usage.refusals24h,
  };
}

/** The environment's main key in the key lists: who issued it, when, and when it was last used. */
export function mainKeyResource(key: KeyProvenance): MainKeyResource {
  return {
    key_id: key.keyId,
    created_at: key.createdAt,
    created_by: createdByResource(key.createdBy),
    last_used_at: key.lastUsedAt,
  };
}
