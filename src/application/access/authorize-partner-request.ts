import { Inject, Injectable } from '@nestjs/common';
import { AuthenticateApiKey } from '../auth/authenticate-api-key';
import { Caller } from '../auth/caller';
import { CLOCK, Clock } from '../ports/clock.port';
import { KEY_USAGE, KeyUsage } from '../ports/key-usage.port';
import { RATE_LIMITER, RateLimitDecision, RateLimiter } from '../ports/rate-limiter.port';
import { ServiceError } from '../shared/service-error';
import { addressRefusal, refusalError } from './access-refusal';
import { BucketDecision, bindingDecision, bucketsOf } from '../ports/rate-limit-buckets';
import { SourceThrottle } from './source-throttle';

export interface PartnerRequest {
  authorization: string | undefined;
  /** The caller's address as the transport established it (trusted proxies already applied). */
  ip: string;
  requestId: string;
}

export class RateLimitExceeded extends ServiceError {
  constructor(readonly decision: RateLimitDecision) {
    super(
      'rate_limit_exceeded',
      decision.appliesTo === 'key'
        ? `at most ${decision.limit} requests per minute for this restricted key; retry in ${decision.resetSeconds} s`
        : `at most ${decision.limit} requests per minute for the keys of this environment together; retry in ${decision.resetSeconds} s`,
    );
  }
}

/**
 * The gate in front of every partner operation (REST and agent tools): the source throttle (429), a valid
 * key (401/403), an allowed address (403), then the rate limits of the environment and of a restricted key (429).
 */
@Injectable()
export class AuthorizePartnerRequest {
  constructor(
    private readonly authenticate: AuthenticateApiKey,
    private readonly sourceThrottle: SourceThrottle,
    @Inject(RATE_LIMITER) private readonly rateLimiter: RateLimiter,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(KEY_USAGE) private readonly usage: KeyUsage,
  ) {}

  async execute(request: PartnerRequest): Promise<{ caller: Caller; rateLimit: RateLimitDecision }> {
    const now = this.clock.now();
    // The key, its partner and the settings come in one read (with the SQL rate limit, counted in it too).
    const {
      caller,
      access,
      rateLimit: counted,
    } = await this.sourceThrottle.authenticate(request.ip, 'invalid_api_key', () =>
      this.authenticate.admit(request.authorization, request.requestId, now),
    );
    const refusedAddress = addressRefusal(access, request.ip);
    if (refusedAddress) throw refusalError(refusedAddress);
    const rateLimit = counted ?? (await this.count(caller, access.settings.rateLimitPerMinute, now));
    if (!rateLimit.allowed) throw new RateLimitExceeded(rateLimit);
    this.usage.recordUse(caller.keyId, now);
    return { caller, rateLimit };
  }

  private async count(caller: Caller, environmentLimit: number, now: Date): Promise<RateLimitDecision> {
    const buckets = bucketsOf(caller, environmentLimit, caller.restriction?.rateLimitPerMinute ?? null);
    const decisions = await Promise.all(
      buckets.map(async ({ bucket, limitPerMinute, appliesTo }): Promise<BucketDecision> => ({
        ...(await this.rateLimiter.hit(bucket, limitPerMinute, now)),
        appliesTo,
      })),
    );
    return bindingDecision(decisions);
  }
}
