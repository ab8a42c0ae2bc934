import { Environment } from '../../domain/shared/environment';
import { RateLimitDecision } from './rate-limiter.port';
import { ApiKeyAccess } from './read-models.port';

/**
 * Looks a key up by its hash and, where the store can, counts the request against the key's
 * rate limit in the same round trip. A request is counted there only if the key passes every
 * check that needs no caller address (active, of the expected environment, partner known, KYC
 * approved for a live key) and its partner has no IP allowlist; otherwise `rateLimit` is null
 * and the caller counts it through the RateLimiter once its own checks have passed.
 */
export interface KeyAdmission {
  lookUp(keyHash: string, environment: Environment, now: Date): Promise<KeyAdmitted>;
}

/** The key's access (null: no such key), and the request's rate-limit decision if it was counted. */
export interface KeyAdmitted {
  access: ApiKeyAccess | null;
  rateLimit: RateLimitDecision | null;
}

export const KEY_ADMISSION = Symbol('KeyAdmission');
