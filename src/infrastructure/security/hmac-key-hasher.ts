import { createHmac } from 'node:crypto';
import { KeyHasher } from '../../application/ports/secrets.port';

/** API keys are stored only as HMAC-SHA256 under the server secret. */
export class HmacKeyHasher implements KeyHasher {
  constructor(private readonly secret: string) {
    if (secret.length < 32) throw new Error('API_KEY_SECRET must be at least 32 characters');
  }

  hash(apiKey: string): string {
    return createHmac('sha256', this.secret).update(apiKey, 'utf8').digest('hex');
  }
}
