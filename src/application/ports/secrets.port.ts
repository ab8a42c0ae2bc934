import { Environment } from '../../domain/shared/environment';

/** Keyed hashing of API keys and operator tokens (HMAC-SHA256 under the server secret). */
export interface KeyHasher {
  /** Under the newest secret: what a new key or token is recorded with. */
  hash(apiKey: string): string;
  /** Under each secret of the ring, newest first: what a presented key or token may be recorded with. */
  candidates(apiKey: string): string[];
}

/** Random material from a CSPRNG: API keys and identifiers. */
export interface SecretGenerator {
  /** `svc_live_` or `svc_test_` followed by 32 base64url characters. */
  newApiKey(environment: Environment): string;
  newId(prefix: string): string;
  /** `whsec_` followed by 32 base64url characters. */
  newWebhookSecret(): string;
  /** `op_` followed by 43 base64url characters (32 random bytes): a back-office operator's token. */
  newOperatorToken(): string;
}

export const KEY_HASHER = Symbol('KeyHasher');
export const SECRET_GENERATOR = Symbol('SecretGenerator');
