import { ErrorCode } from '../shared/service-error';

/**
 * What restricted keys were refused (a cap or their scope), for the key listings: refusals move
 * no money and write no event, so they are counted here.
 */
export interface KeyUsage {
  recordRefusal(refusal: { keyId: string; code: ErrorCode; at: Date }): Promise<void>;
  /** Refusals per key id since the given time (keys without any are absent). */
  refusalsSince(keyIds: readonly string[], since: Date): Promise<Map<string, number>>;
}

export const KEY_USAGE = Symbol('KeyUsage');
