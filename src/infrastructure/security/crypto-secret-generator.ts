import { randomBytes } from 'node:crypto';
import { SecretGenerator } from '../../application/ports/secrets.port';
import { Environment } from '../../domain/shared/environment';
import { API_KEY_PREFIX } from '../../domain/partner/api-key-format';

export class CryptoSecretGenerator implements SecretGenerator {
  newApiKey(environment: Environment): string {
    // 24 random bytes are exactly 32 base64url characters.
    return `${API_KEY_PREFIX[environment]}${randomBytes(24).toString('base64url')}`;
  }

  newWebhookSecret(): string {
    return `whsec_${randomBytes(24).toString('base64url')}`;
  }

  newId(prefix: string): string {
    return `${prefix}_${randomBytes(12).toString('hex')}`;
  }
}
