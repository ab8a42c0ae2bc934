import { randomBytes, randomFillSync } from 'node:crypto';
import { SecretGenerator } from '../../application/ports/secrets.port';
import { Environment } from '../../domain/shared/environment';
import { API_KEY_PREFIX } from '../../domain/partner/api-key-format';
import { OPERATOR_TOKEN_PREFIX } from '../../domain/back-office/operator-token';

/** The bytes of an id that are random; the first four are its creation second. */
const RANDOM_ID_BYTES = 8;

export class CryptoSecretGenerator implements SecretGenerator {
  /**
   * Ids (orders, partners, keys' ids) are not secrets: their random part comes from a pool of random
   * bytes filled 4 KiB at a time, since one call to the random source per id cost several
   * microseconds each on the request path. Keys and webhook secrets are drawn one by one.
   * An id begins with its creation second (four bytes, big-endian), then eight random bytes: the
   * indexes keyed by order ids (the order's row, its stream) then grow at one end instead of taking
   * each new id on a random page (docs/decisions/0113-ids-begin-with-their-second.md).
   */
  constructor(private readonly now: () => number = Date.now) {}

  private readonly idPool = Buffer.alloc(4096 - (4096 % RANDOM_ID_BYTES));
  private idPoolOffset = this.idPool.length;

  newApiKey(environment: Environment): string {
    // 24 random bytes are exactly 32 base64url characters.
    return `${API_KEY_PREFIX[environment]}${randomBytes(24).toString('base64url')}`;
  }

  newWebhookSecret(): string {
    return `whsec_${randomBytes(24).toString('base64url')}`;
  }

  newOperatorToken(): string {
    return `${OPERATOR_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
  }

  newId(prefix: string): string {
    if (this.idPoolOffset === this.idPool.length) {
      randomFillSync(this.idPool);
      this.idPoolOffset = 0;
    }
    const second = Math.floor(this.now() / 1000) >>> 0;
    const random = this.idPool.toString('hex', this.idPoolOffset, this.idPoolOffset + RANDOM_ID_BYTES);
    this.idPoolOffset += RANDOM_ID_BYTES;
    return `${prefix}_${second.toString(16).padStart(8, '0')}${random}`;
  }
}
