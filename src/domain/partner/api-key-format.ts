import { Environment } from '../shared/environment';

export const API_KEY_PREFIX: Record<Environment, string> = { live: 'svc_live_', sandbox: 'svc_test_' };

const API_KEY_PATTERN = /^svc_(live|test)_[A-Za-z0-9_-]{32}$/;

/** The environment a well-formed key selects, or null for a malformed one. */
export function environmentOfApiKey(apiKey: string): Environment | null {
  const match = API_KEY_PATTERN.exec(apiKey);
  if (!match) return null;
  return match[1] === 'live' ? 'live' : 'sandbox';
}
