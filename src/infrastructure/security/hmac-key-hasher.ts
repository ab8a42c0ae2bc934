import { createHmac } from 'node:crypto';
import { KeyHasher } from '../../application/ports/secrets.port';

/** API keys and operator tokens are stored only as HMAC-SHA256 under the server secret (the newest of the ring). */
export class HmacKeyHasher implements KeyHasher {
  private readonly ring: readonly string[];

  constructor(secrets: string | readonly string[]) {
    this.ring = typeof secrets === 'string' ? [secrets] : secrets;
    if (this.ring.length === 0 || this.ring.some((secret) => secret.length < 32))
      throw new Error('API_KEY_SECRET must be at least 32 characters');
  }

  hash(apiKey: string): string {
    return this.hashUnder(this.ring[0], apiKey);
  }

  candidates(apiKey: string): string[] {
    return this.ring.map((secret) => this.hashUnder(secret, apiKey));
  }

  private hashUnder(secret: string | undefined, apiKey: string): string {
    return createHmac('sha256', secret ?? '')
      .update(apiKey, 'utf8')
      .digest('hex');
  }
}
