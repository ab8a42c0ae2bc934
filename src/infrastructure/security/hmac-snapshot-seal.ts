import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { SnapshotSeal } from '../../application/ports/wallet-snapshots.port';

/** HMAC-SHA256 under an HKDF key of the server secret ("v1.<hex>"), sealed under the newest secret; a seal by any of them verifies. */
export class HmacSnapshotSeal implements SnapshotSeal {
  private readonly keys: Buffer[];

  constructor(serverSecrets: string | readonly string[]) {
    this.keys = (typeof serverSecrets === 'string' ? [serverSecrets] : serverSecrets).map((secret) =>
      Buffer.from(hkdfSync('sha256', secret, 'partner-service', 'wallet-snapshot-sealing', 32)),
    );
  }

  seal(text: string): string {
    return this.sealUnder(this.keys[0], text);
  }

  verifies(text: string, seal: string): boolean {
    const given = Buffer.from(seal);
    return this.keys.some((key) => {
      const expected = Buffer.from(this.sealUnder(key, text));
      return given.length === expected.length && timingSafeEqual(given, expected);
    });
  }

  private sealUnder(key: Buffer | undefined, text: string): string {
    if (!key) throw new Error('no server secret to seal with');
    return `v1.${createHmac('sha256', key).update(text, 'utf8').digest('hex')}`;
  }
}
