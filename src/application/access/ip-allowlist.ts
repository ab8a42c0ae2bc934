import { BlockList, isIP } from 'node:net';

/** Parses "a.b.c.d", "a.b.c.d/n", "x::y" or "x::y/n"; null when malformed. */
export function parseCidr(text: string): { network: string; prefix: number; family: 'ipv4' | 'ipv6' } | null {
  const [address, prefixText, extra] = text.trim().split('/');
  if (extra !== undefined || !address) return null;
  const version = isIP(address);
  if (version === 0) return null;
  const max = version === 4 ? 32 : 128;
  const prefix = prefixText === undefined ? max : /^\d{1,3}$/.test(prefixText) ? Number(prefixText) : NaN;
  if (!Number.isInteger(prefix) || prefix < 0 || prefix > max) return null;
  return { network: address, prefix, family: version === 4 ? 'ipv4' : 'ipv6' };
}

/** True when the allowlist is empty (no restriction) or holds the address; IPv4-mapped IPv6 matches IPv4 ranges. */
export function isAllowed(allowlist: readonly string[], address: string): boolean {
  if (allowlist.length === 0) return true;
  const blocks = new BlockList();
  for (const entry of allowlist) {
    const cidr = parseCidr(entry);
    if (cidr) blocks.addSubnet(cidr.network, cidr.prefix, cidr.family);
  }
  const version = isIP(address);
  if (version === 0) return false;
  return blocks.check(address, version === 4 ? 'ipv4' : 'ipv6');
}
