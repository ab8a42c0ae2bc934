import { Inject, Injectable } from '@nestjs/common';
import { AUTH_FAILURE_THROTTLE, AuthFailureThrottle } from '../ports/auth-failure-throttle.port';
import { CLOCK, Clock } from '../ports/clock.port';
import { ErrorCode, ServiceError } from '../shared/service-error';

/** 429 for an address that failed to authenticate too often; answered with Retry-After. */
export class SourceThrottled extends ServiceError {
  constructor(readonly retryAfterSeconds: number) {
    super('rate_limit_exceeded', `too many failed authentications from this address; retry in ${retryAfterSeconds} s`);
  }
}

/**
 * The throttle in front of authentication, per source address: an address with too many recent
 * failures is refused before its credential costs a keyed hash or a lookup, and each failure of an
 * attempt let through counts. A credential that passes counts nothing (what was taken in advance
 * is given back), so partners presenting valid keys are never slowed down by another address's
 * failures.
 */
@Injectable()
export class SourceThrottle {
  constructor(
    @Inject(AUTH_FAILURE_THROTTLE) private readonly failures: AuthFailureThrottle,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async authenticate<T>(address: string, failure: ErrorCode, attempt: () => Promise<T>): Promise<T> {
    const admission = await this.failures.admit(address, this.clock.now());
    if (admission.refused) throw new SourceThrottled(admission.retryAfterSeconds);
    let result: T;
    try {
      result = await attempt();
    } catch (error) {
      if (error instanceof ServiceError && error.code === failure)
        await this.failures.recordFailure(address, this.clock.now(), admission.charged);
      else if (admission.charged) await this.failures.refund(address, this.clock.now());
      throw error;
    }
    if (admission.charged) await this.failures.refund(address, this.clock.now());
    return result;
  }
}
