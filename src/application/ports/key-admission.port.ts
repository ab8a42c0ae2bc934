import { Environment } from '../../domain/shared/environment';
import { RateLimitDecision } from './rate-limiter.port';
import { ApiKeyAccess } from './read-models.port';

/**
 * Looks a key up by its hash and, where the store can, counts the request against its rate limit in the same
 * round trip: only a key passing the address-free checks of a partner without an allowlist. Otherwise
 * `rateLimit` is null and the caller counts it through the RateLimiter.
 */
export interface KeyAdmission {
  /**
   * `spare`: tokens to take beyond this request's, for the key's next requests (a lease, decision 0161); a store that
   * cannot lease ignores it.
   */
  lookUp(keyHash: string, environment: Environment, now: Date, spare?: number): Promise<KeyAdmitted>;
}

/** The key's access (null: no such key), and the request's rate-limit decision if it was counted. */
export interface KeyAdmitted {
  access: ApiKeyAccess | null;
  rateLimit: RateLimitDecision | null;
  /** The decisions of the spare tokens taken, in order; only allowed ones, so possibly fewer than asked. */
  spares?: readonly RateLimitDecision[];
}

export const KEY_ADMISSION = Symbol('KeyAdmission');

/**
 * Drops this process's leased admissions of a partner's keys in an environment and returns once no process can use
 * one any more: after it, every request of those keys is admitted from the database again (decision 0161).
 */
export interface AdmissionLeases {
  /**
   * `limits`: a change of the partner's rate limit, from and to. A raised limit waits for no other process (a lease
   * taken under the lower one only admits less); without `limits`, the partner's current limit says whether any
   * process may hold a lease.
   */
  release(partnerId: string, environment: Environment, limits?: { before: number; after: number }): Promise<void>;
}

export const ADMISSION_LEASES = Symbol('AdmissionLeases');
