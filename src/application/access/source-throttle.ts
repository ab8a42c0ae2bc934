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
 * Per source address, in front of authentication: too many recent failures are refused before a keyed hash or
 * lookup, and a credential that passes counts nothing, so valid keys are never slowed by another address's
 * failures (decision 0140).
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
