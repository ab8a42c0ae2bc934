import { Environment } from '../../domain/shared/environment';
import { ApiKeyAccess } from '../ports/read-models.port';
import { ErrorCode, ServiceError } from '../shared/service-error';
import { isAllowed } from './ip-allowlist';

/**
 * Why a key may no longer act, in the words an open event stream closes with: revoked (or regenerated, or
 * its record untrusted), expired, an access change pending, live KYC suspended, or the address off the allowlist.
 */
export type AccessEndReason =
  'key_revoked' | 'key_expired' | 'access_change_pending' | 'kyc_suspended' | 'ip_not_allowed';

export interface AccessRefusal {
  code: ErrorCode;
  detail: string;
  reason: AccessEndReason;
}

const refusal = (code: ErrorCode, detail: string, reason: AccessEndReason): AccessRefusal => ({ code, detail, reason });

const REVOKED = refusal('invalid_api_key', 'the API key is not valid or has been revoked', 'key_revoked');

/**
 * The checks of a key that need no caller address, in request order: 401, then 503 for a pending access
 * change, then 403; the same judgement for a request and an event stream rechecking its key. Null: it may act.
 */
export function keyRefusal(access: ApiKeyAccess | null, environment: Environment, now: Date): AccessRefusal | null {
  const key = access?.key;
  if (!access || !key || !key.active || key.environment !== environment) return REVOKED;
  if (access.recordProblem !== null) return REVOKED;
  const expiresAt = access.restriction?.expiresAt;
  if (expiresAt && new Date(expiresAt).getTime() <= now.getTime())
    return refusal('invalid_api_key', 'the API key has expired', 'key_expired');
  // Fail closed: a suspension, regeneration or allowlist change is in the log but not yet in the read models.
  if (access.accessChangePending) {
    return refusal(
      'access_change_pending',
      "a change to this partner's access is being applied; retry in a moment",
      'access_change_pending',
    );
  }
  if (!access.partner) return REVOKED;
  if (environment === 'live' && access.partner.kycStatus !== 'approved')
    return refusal('kyc_required', 'live keys work only while the partner KYC is approved', 'kyc_suspended');
  return null;
}

/** The caller's address against the partner's allowlist for the environment (403). */
export function addressRefusal(access: ApiKeyAccess, ip: string): AccessRefusal | null {
  if (isAllowed(access.settings.ipAllowlist, ip)) return null;
  return refusal('ip_not_allowed', `requests from ${ip} are not in this key's IP allowlist`, 'ip_not_allowed');
}

export const refusalError = (refused: AccessRefusal): ServiceError => new ServiceError(refused.code, refused.detail);
