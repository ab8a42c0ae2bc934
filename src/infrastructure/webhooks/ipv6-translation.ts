import { isIPv6 } from 'node:net';

export function ipv6Bytes(address: string): number[] | null {
  if (!isIPv6(address)) return null;
  let text = address.toLowerCase().split('%')[0];
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number);
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, null];
  const groups = (part: string) => (part === '' ? [] : part.split(':'));
  const left = groups(head);
  const right = tail === null ? [] : groups(tail);
  const zeros = tail === null ? 0 : 8 - left.length - right.length;
  const words = [...left, ...Array<string>(zeros).fill('0'), ...right].map((word) => parseInt(word, 16));
  if (words.length !== 8) return null;
  return words.flatMap((word) => [word >> 8, word & 0xff]);
}

const startsWith = (bytes: readonly number[], prefix: readonly number[]): boolean =>
  prefix.every((byte, index) => bytes[index] === byte);

const dottedAt = (bytes: readonly number[], at: number): string => bytes.slice(at, at + 4).join('.');

/** NAT64's well-known prefix 64:ff9b::/96 (RFC 6052): the last 32 bits are the IPv4 address reached. */
const NAT64_WELL_KNOWN = [0x00, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0];
/** IPv4-mapped ::ffff:0:0/96: a socket given one connects to the IPv4 address. */
const IPV4_MAPPED = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff];

/** The IPv4 address an IPv4-mapped or NAT64 well-known-prefix IPv6 address reaches; null otherwise. */
export function translatedIpv4(address: string): string | null {
  const bytes = ipv6Bytes(address);
  if (!bytes) return null;
  if (startsWith(bytes, NAT64_WELL_KNOWN) || startsWith(bytes, IPV4_MAPPED)) return dottedAt(bytes, 12);
  return null;
}
