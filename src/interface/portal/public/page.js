// @ts-check
// What every part of the portal shares: the helpers it shares with the operator console
// (shared-page.js), how a refused key and a reached rate limit are worded, exact decimals.
import { ApiError } from './api.js';
import { describeFailure, reportFailures, whenCredentialRefused } from './shared-page.js';

export {
  $,
  cell,
  fail,
  formQuery,
  guarded,
  notify,
  onClick,
  onSubmit,
  pickable,
  selectTab,
  when,
} from './shared-page.js';

/** @param {unknown} error */
export function describe(error) {
  if (error instanceof ApiError && error.code === 'rate_limit_exceeded')
    return `Rate limit reached for this key; try again in ${error.retryAfter ?? 'a few'} seconds.`;
  return describeFailure(error);
}

reportFailures({
  refused: 'The key was refused (invalid_api_key): it may have been regenerated, revoked or expired. Sign in again.',
  describe,
});

/** What a refused key (401) does: set by the portal to sign out. */
export const whenKeyRefused = whenCredentialRefused;

/** A decimal text as a count of ten-thousandths, for exact comparisons (no float). @param {string} text */
export function scaled(text) {
  const match = /^(-?)(\d+)(?:\.(\d{1,4}))?$/.exec(text.trim());
  if (!match) return null;
  const value = BigInt(match[2]) * 10000n + BigInt((match[3] ?? '').padEnd(4, '0'));
  return match[1] ? -value : value;
}
