import { Environment } from '../../domain/shared/environment';
import { RateLimitDecision } from './rate-limiter.port';
import { ApiKeyAccess } from './read-models.port';

/**
 * Looks a key up by its hash and, where the store can, counts the request against its rate limit in the same
 * round trip: only a key passing the address-free checks of a partner without an allowlist. Otherwise
 * `rateLimit` is null and the caller counts it through the RateLimiter.
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
