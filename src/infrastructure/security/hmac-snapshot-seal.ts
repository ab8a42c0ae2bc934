import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { SnapshotSeal } from '../../application/ports/wallet-snapshots.port';

/**
 * HMAC-SHA256 under a key derived (HKDF) from the server secret, for this purpose only: "v1.<hex>".
 * Sealed under the newest secret of the ring; a seal made under any of them verifies.
 */
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
