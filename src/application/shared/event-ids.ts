import { hash as digestOf } from 'node:crypto';

/** Namespace for the service's deterministic event and job ids. */
const NAMESPACE = Buffer.from('6f1c2d8e4b7a5c3e9d102a6b8e4f7c21', 'hex');

/**
 * The id of an event a retry or a second process may append again, derived from what it is about. A UUID v5
 * (RFC 9562), as `uuid`'s `v5` gives, computed on a Buffer to save that package's per-character allocations,
 * with the one-shot digest (no Hash object per id).
 */
export const deterministicEventId = (...parts: string[]): string => {
  const name = parts.join('|');
  const input = Buffer.allocUnsafe(NAMESPACE.length + Buffer.byteLength(name, 'utf8'));
  NAMESPACE.copy(input, 0);
  input.write(name, NAMESPACE.length, 'utf8');
  const hash = digestOf('sha1', input, 'buffer');
  hash[6] = (hash[6] & 0x0f) | 0x50;
  hash[8] = (hash[8] & 0x3f) | 0x80;
  const hex = hash.toString('hex', 0, 16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
};
