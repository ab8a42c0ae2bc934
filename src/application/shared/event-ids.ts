import { hash as digestOf } from 'node:crypto';

/** Namespace for the service's deterministic event and job ids. */
const NAMESPACE = Buffer.from('6f1c2d8e4b7a5c3e9d102a6b8e4f7c21', 'hex');

/**
 * The id of an event a retry or a second process may append again, derived from what it is about. A UUID v5
 * (RFC 9562), as `uuid`'s `v5` gives, computed on a Buffer to save that package's per-character allocations,
 * with the one-shot digest (no Hash object per id).
 */
export const deterministicEventId = (...parts: string[]): string => uuidOf(digestOfName(parts), 0x50);

/**
 * A deterministic id that begins with a moment: the four bytes of `secondHex` (eight hex digits), then the digest
 * of `parts` as in `deterministicEventId`, as a UUID v8 (RFC 9562's custom layout). Ids made in the same second
 * sit together in an index, so its new entries go to a few pages at its growing end instead of anywhere.
 */
export const eventIdLedBySecond = (secondHex: string, ...parts: string[]): string => {
  const digest = digestOfName(parts);
  digest.write(secondHex, 0, 4, 'hex');
  return uuidOf(digest, 0x80);
};

function digestOfName(parts: readonly string[]): Buffer {
  const name = parts.join('|');
  const input = Buffer.allocUnsafe(NAMESPACE.length + Buffer.byteLength(name, 'utf8'));
  NAMESPACE.copy(input, 0);
  input.write(name, NAMESPACE.length, 'utf8');
  return digestOf('sha1', input, 'buffer');
}

function uuidOf(bytes: Buffer, version: number): string {
  bytes[6] = (bytes[6] & 0x0f) | version;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = bytes.toString('hex', 0, 16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}
