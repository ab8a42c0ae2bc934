import { ScopedKeyView } from '../ports/read-models.port';

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
    expires_at: key.expiresAt,
    status: key.revokedAt !== null ? 'revoked' : expired ? 'expired' : 'active',
    created_at: key.createdAt,
    revoked_at: key.revokedAt,
    spent_last_24h: usage.spent24h,
    refusals_last_24h: usage.refusals24h,
  };
}
