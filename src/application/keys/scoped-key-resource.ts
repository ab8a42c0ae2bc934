import { Actor } from '../../domain/shared/actor';
import { KeyProvenance, ScopedKeyView } from '../ports/read-models.port';

/** Who created a key, as the lists show it: the actor of its creation event. */
const createdByResource = (actor: Actor | null): { type: string; id: string } | null =>
  actor ? { type: actor.type, id: actor.id } : null;

/** A restricted key as partners and operators see it (never the key or its hash). */
export function scopedKeyResource(
  key: ScopedKeyView,
  usage: { spent24h: string; refusals24h: number },
  now: Date,
): Record<string, unknown> {
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
export function mainKeyResource(key: KeyProvenance): Record<string, unknown> {
  return {
    key_id: key.keyId,
    created_at: key.createdAt,
    created_by: createdByResource(key.createdBy),
    last_used_at: key.lastUsedAt,
  };
}
