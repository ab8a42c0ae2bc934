import { BlockList, isIP } from 'node:net';
import { WebhookUrlPolicy } from '../../application/ports/outbound-address-policy.port';
import { translatedIpv4 } from './ipv6-translation';

/** Addresses no webhook may reach by default: private, loopback, link-local, CGNAT, multicast and reserved ranges. */
const NON_PUBLIC = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  NON_PUBLIC.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 96], // the unspecified address, and the deprecated IPv4-compatible ones (::a.b.c.d)
  ['::1', 128],
  ['100::', 64], // discard-only
  ['2001:db8::', 32], // documentation
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10], // site-local, deprecated
  ['ff00::', 8],
] as const) {
  NON_PUBLIC.addSubnet(network, prefix, 'ipv6');
}

/** IPv6 transition ranges relayed to IPv4 we cannot see are refused always (decision 0134). */
const TUNNELS = new BlockList();
TUNNELS.addSubnet('64:ff9b:1::', 48, 'ipv6');
TUNNELS.addSubnet('2002::', 16, 'ipv6');
TUNNELS.addSubnet('2001::', 32, 'ipv6');

/** Cloud metadata and platform endpoints hand out credentials: no webhook reaches them, even in a private deployment (decision 0134). */
const METADATA = new BlockList();
for (const address of [
  '169.254.169.254',
  '169.254.170.2',
  '169.254.170.23',
  '168.63.129.16',
  '100.100.100.200',
  '192.0.0.192',
  '169.254.0.23',
])
  METADATA.addAddress(address, 'ipv4');
for (const address of ['fd00:ec2::254', 'fd00:ec2::23', 'fd20:ce::254']) METADATA.addAddress(address, 'ipv6');
const METADATA_NAMES = new Set([
  'metadata.google.internal',
  'metadata',
  'instance-data',
  'instance-data.ec2.internal',
  'metadata.tencentyun.com',
]);

type AddressKind = 'metadata' | 'tunnel' | 'non_public' | 'public';

const familyOf = (address: string): 'ipv4' | 'ipv6' | null => {
  const family = isIP(address);
  return family === 4 ? 'ipv4' : family === 6 ? 'ipv6' : null;
};

function kindOf(address: string): AddressKind | null {
  const family = familyOf(address);
  if (family === null) return null;
  if (family === 'ipv6') {
    const carried = translatedIpv4(address);
    if (carried !== null) return kindOf(carried);
    if (TUNNELS.check(address, family)) return 'tunnel';
  }
  if (METADATA.check(address, family)) return 'metadata';
  return NON_PUBLIC.check(address, family) ? 'non_public' : 'public';
}

export function isPublicAddress(address: string): boolean {
  return kindOf(address) === 'public';
}

const hostOf = (url: string): string | null => {
  try {
    return new URL(url).hostname
      .replace(/^\[|\]$/g, '')
      .toLowerCase()
      .replace(/\.$/, '');
  } catch {
    return null;
  }
};

/** Where webhooks may go, alike for sandbox and live: public addresses only unless allowed, metadata never (decision 0066). */
export class OutboundAddressPolicy implements WebhookUrlPolicy {
  constructor(readonly allowPrivate: boolean) {}

  permits(address: string): boolean {
    const kind = kindOf(address);
    return kind === 'public' || (kind === 'non_public' && this.allowPrivate);
  }

  /** Why a webhook URL's host can never be permitted, or null; every delivery resolves and checks the addresses again. */
  hostProblem(url: string): string | null {
    const host = hostOf(url);
    if (host === null) return null; // a malformed URL is refused with its own reason
    if (METADATA_NAMES.has(host)) return `webhook_url: webhooks may not reach ${host}`;
    if (isIP(host) !== 0 && !this.permits(host))
      return `webhook_url: webhooks must reach a public address, not ${host}`;
    const localName = host === 'localhost' || host.endsWith('.localhost');
    if (localName && !this.allowPrivate) return `webhook_url: webhooks must reach a public address, not ${host}`;
    return null;
  }

  refusedLiteral(url: string): string | null {
    const host = hostOf(url);
    if (host === null || isIP(host) === 0) return null;
    return this.permits(host) ? null : host;
  }
}
