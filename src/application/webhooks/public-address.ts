import { BlockList, isIP } from 'node:net';

/** Addresses a live webhook may never reach: private, loopback, link-local, unique-local, CGNAT, multicast, unspecified. */
const FORBIDDEN = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  FORBIDDEN.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 96], // the unspecified address, and the deprecated IPv4-compatible ones (::a.b.c.d)
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
] as const) {
  FORBIDDEN.addSubnet(network, prefix, 'ipv6');
}

export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  return !FORBIDDEN.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/**
 * For a live webhook URL: why its host can never be a public target (a literal address that is
 * not public, or a localhost name), or null. Names are resolved, and every address checked
 * again, at each delivery; this only turns the certain refusals into an answer at once.
 */
export function nonPublicHostProblem(url: string): string | null {
  let host: string;
  try {
    host = new URL(url).hostname.replace(/^\[|\]$/g, '').toLowerCase();
  } catch {
    return null; // a malformed URL is refused with its own reason
  }
  const localName = host === 'localhost' || host.endsWith('.localhost') || host === 'localhost.';
  if (localName || (isIP(host) !== 0 && !isPublicAddress(host))) {
    return `webhook_url: live webhooks must reach a public address, not ${host}`;
  }
  return null;
}
