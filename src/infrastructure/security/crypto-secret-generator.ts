import { randomBytes, randomFillSync } from 'node:crypto';
import { SecretGenerator } from '../../application/ports/secrets.port';
import { Environment } from '../../domain/shared/environment';
import { API_KEY_PREFIX } from '../../domain/partner/api-key-format';
import { OPERATOR_TOKEN_PREFIX } from '../../domain/back-office/operator-token';

const ID_BYTES = 12;

export class CryptoSecretGenerator implements SecretGenerator {
  /**
   * Ids (orders, partners, keys' ids) are not secrets: they come from a pool of random bytes
   * filled 4 KiB at a time, since one call to the random source per id cost several
   * microseconds each on the request path. Keys and webhook secrets are drawn one by one.
   */
  private readonly idPool = Buffer.alloc(4096 - (4096 % ID_BYTES));
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
    const id = this.idPool.toString('hex', this.idPoolOffset, this.idPoolOffset + ID_BYTES);
    this.idPoolOffset += ID_BYTES;
    return `${prefix}_${id}`;
  }
}
