import { randomBytes, randomFillSync } from 'node:crypto';
import { SecretGenerator } from '../../application/ports/secrets.port';
import { Environment } from '../../domain/shared/environment';
import { API_KEY_PREFIX } from '../../domain/partner/api-key-format';
import { OPERATOR_TOKEN_PREFIX } from '../../domain/back-office/operator-token';

const RANDOM_ID_BYTES = 8;

export class CryptoSecretGenerator implements SecretGenerator {
  /** Ids' random part comes from a pool, keys one by one; an id begins with its creation second, so its indexes grow at one end (decision 0113). */
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
