import { ErrorCode } from '../shared/service-error';

/** A restricted key's request refused by its caps or scope, with the error it was answered. */
export interface KeyRefusal {
  keyId: string;
  code: ErrorCode;
  at: Date;
}

/**
 * What restricted keys were refused (a cap or their scope), for the key listings: refusals move
 * no money and write no event, so they are counted here. And when each key was last used.
 */
export interface KeyUsage {
  /**
   * A request with the key was admitted at `at`. Recorded off the request path (never awaited, a
   * failure is logged), at most once per key every few seconds per process.
   */
  recordUse(keyId: string, at: Date): void;
  recordRefusal(refusal: KeyRefusal): Promise<void>;
  /** Refusals per key id since the given time (keys without any are absent). */
  refusalsSince(keyIds: readonly string[], since: Date): Promise<Map<string, number>>;
}

export const KEY_USAGE = Symbol('KeyUsage');
