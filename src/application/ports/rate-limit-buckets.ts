import { Environment } from '../../domain/shared/environment';
import { RateLimitDecision } from './rate-limiter.port';

/**
 * The counters a request of a key is counted in: its partner's, for the environment, shared by the
 * main key and every restricted key of that environment (the spec's limit, which no number of keys
 * multiplies), and, for a restricted key with a limit of its own, the key's.
 */
export interface RateLimitBucket {
  bucket: string;
  limitPerMinute: number;
  appliesTo: 'partner' | 'key';
}

export const partnerBucket = (partnerId: string, environment: Environment): string =>
  `partner:${partnerId}:${environment}`;

export const keyBucket = (keyId: string): string => `key:${keyId}`;

/** The buckets of a request: the partner's, and the key's own when it has a lower limit (never a higher one). */
export function bucketsOf(
  caller: { partnerId: string; environment: Environment; keyId: string },
  environmentLimit: number,
  keyLimit: number | null,
): RateLimitBucket[] {
  const buckets: RateLimitBucket[] = [
    {
      bucket: partnerBucket(caller.partnerId, caller.environment),
      limitPerMinute: environmentLimit,
      appliesTo: 'partner',
    },
  ];
  if (keyLimit !== null)
    buckets.push({
      bucket: keyBucket(caller.keyId),
      limitPerMinute: Math.min(keyLimit, environmentLimit),
      appliesTo: 'key',
    });
  return buckets;
}

/** A decision of one bucket, and which bucket it is. */
export interface BucketDecision extends RateLimitDecision {
  appliesTo: 'partner' | 'key';
}

/**
 * One decision for a request counted in several buckets: refused if any refuses, and otherwise
 * the one that leaves the fewest requests, so RateLimit-Remaining never promises more than the
 * tighter counter allows.
 */
export function bindingDecision(decisions: readonly BucketDecision[]): BucketDecision {
  const refused = decisions.filter((decision) => !decision.allowed);
  const candidates = refused.length > 0 ? refused : decisions;
  return candidates.reduce((tightest, decision) => (decision.remaining < tightest.remaining ? decision : tightest));
}
