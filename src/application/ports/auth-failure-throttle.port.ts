/**
 * Failed authentications (unknown or invalid API keys, wrong back-office tokens) counted per source
 * address, and consulted before a presented credential is hashed or looked up. Only failures are
 * counted: an address that presents valid credentials is never slowed down here, whatever others do.
 */
export interface AuthFailureThrottle {
  /**
   * Before an attempt: refused, or let through. An address without recent failures is let through
   * at no charge; one with recent failures has a failure taken in advance (`charged`), so that
   * concurrent attempts from it cannot all pass the check before the first of them fails.
   */
  admit(address: string, now: Date): Promise<AttemptAdmission>;
  /** Counts a failure, unless one was already taken for the attempt on admission. */
  recordFailure(address: string, now: Date, charged: boolean): Promise<void>;
  /** Gives back the failure taken in advance for an attempt that succeeded. */
  refund(address: string, now: Date): Promise<void>;
}

export type AttemptAdmission = { refused: true; retryAfterSeconds: number } | { refused: false; charged: boolean };

export const AUTH_FAILURE_THROTTLE = Symbol('AuthFailureThrottle');
