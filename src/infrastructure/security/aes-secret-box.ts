import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { SecretBox } from '../../application/ports/webhook.port';

/** AES-256-GCM under an HKDF key of the server secret ("v1.<iv>.<tag>.<ciphertext>"), sealed under the newest secret, opened under any. */
export class AesSecretBox implements SecretBox {
  private readonly keys: Buffer[];

  constructor(serverSecrets: string | readonly string[]) {
    this.keys = (typeof serverSecrets === 'string' ? [serverSecrets] : serverSecrets).map((secret) =>
      Buffer.from(hkdfSync('sha256', secret, 'partner-service', 'webhook-secret-sealing', 32)),
    );
  }

  seal(plaintext: string): string {
    const [key] = this.keys;
    if (!key) throw new Error('no server secret to seal with');
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return ['v1', iv, cipher.getAuthTag(), ciphertext]
      .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
      .join('.');
  }

  open(sealed: string): string {
    for (const key of this.keys) {
      const opened = this.openUnder(key, sealed);
      if (opened !== null) return opened;
    }
    throw new Error('unreadable sealed secret');
  }

  sealedUnderNewest(sealed: string): boolean {
    const [key] = this.keys;
    return key !== undefined && this.openUnder(key, sealed) !== null;
  }

  private openUnder(key: Buffer, sealed: string): string | null {
    const [version, iv, tag, ciphertext] = sealed.split('.');
    if (version !== 'v1' || !iv || !tag || ciphertext === undefined) return null;
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
    } catch {
      return null;
    }
  }
}
