import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { SnapshotSeal } from '../../application/ports/wallet-snapshots.port';

/** HMAC-SHA256 under a key derived (HKDF) from the server secret, for this purpose only: "v1.<hex>". */
export class HmacSnapshotSeal implements SnapshotSeal {
  private readonly key: Buffer;

  constructor(serverSecret: string) {
    this.key = Buffer.from(hkdfSync('sha256', serverSecret, 'partner-service', 'wallet-snapshot-sealing', 32));
  }

  seal(text: string): string {
    return `v1.${createHmac('sha256', this.key).update(text, 'utf8').digest('hex')}`;
  }

  verifies(text: string, seal: string): boolean {
    const expected = Buffer.from(this.seal(text));
    const given = Buffer.from(seal);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}
