import { BlockList, isIP } from 'node:net';
import { WebhookUrlPolicy } from '../../application/ports/outbound-address-policy.port';

/** Addresses no webhook may reach by default: private, loopback, link-local, unique-local, CGNAT, multicast, unspecified. */
const NON_PUBLIC = new BlockList();
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
  NON_PUBLIC.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 96], // the unspecified address, and the deprecated IPv4-compatible ones (::a.b.c.d)
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
] as const) {
  NON_PUBLIC.addSubnet(network, prefix, 'ipv6');
}

/**
 * Cloud instance-metadata endpoints (AWS, GCP, Azure, OpenStack; AWS over IPv6; Alibaba): they
 * hand out credentials, so no webhook reaches them, even in a private deployment.
 */
const METADATA = new BlockList();
METADATA.addAddress('169.254.169.254', 'ipv4');
METADATA.addAddress('169.254.170.2', 'ipv4');
METADATA.addAddress('100.100.100.200', 'ipv4');
METADATA.addAddress('fd00:ec2::254', 'ipv6');
const METADATA_NAMES = new Set([
  'metadata.google.internal',
  'metadata.google.internal.',
  'metadata',
  'instance-data',
  'instance-data.ec2.internal',
]);

const familyOf = (address: string): 'ipv4' | 'ipv6' | null => {
  const family = isIP(address);
  return family === 4 ? 'ipv4' : family === 6 ? 'ipv6' : null;
};

export function isPublicAddress(address: string): boolean {
  const family = familyOf(address);
  return family !== null && !NON_PUBLIC.check(address, family) && !METADATA.check(address, family);
}

function isMetadataAddress(address: string): boolean {
  const family = familyOf(address);
  return family !== null && METADATA.check(address, family);
}

const hostOf = (url: string): string | null => {
  try {
    return new URL(url).hostname.replace(/^\[|\]$/g, '').toLowerCase();
  } catch {
    return null;
  }
};

/**
 * Where webhooks may go, the same for sandbox and live: public addresses only, unless the
 * operator runs a private deployment (WEBHOOK_ALLOW_PRIVATE_ADDRESSES) whose receivers sit on
 * private networks. Metadata endpoints stay refused either way. A sandbox key is issued before
 * KYC, so a looser sandbox rule would give anyone a blind POST channel into the network.
 */
export class OutboundAddressPolicy implements WebhookUrlPolicy {
  constructor(readonly allowPrivate: boolean) {}

  /** Whether a resolved address may be connected to. */
  permits(address: string): boolean {
    if (familyOf(address) === null || isMetadataAddress(address)) return false;
    return this.allowPrivate || isPublicAddress(address);
  }

  /**
   * Why a webhook URL's host can never be a permitted target (a literal address that is not
   * permitted, or a local or metadata name), or null. Names are resolved, and every address
   * checked again, at each delivery; this only turns the certain refusals into an answer at once.
   */
  hostProblem(url: string): string | null {
    const host = hostOf(url);
    if (host === null) return null; // a malformed URL is refused with its own reason
    if (METADATA_NAMES.has(host)) return `webhook_url: webhooks may not reach ${host}`;
    if (isIP(host) !== 0 && !this.permits(host))
      return `webhook_url: webhooks must reach a public address, not ${host}`;
    const localName = host === 'localhost' || host.endsWith('.localhost') || host === 'localhost.';
    if (localName && !this.allowPrivate) return `webhook_url: webhooks must reach a public address, not ${host}`;
    return null;
  }

  /** The literal address of a URL's host that is refused before any connection, or null. */
  refusedLiteral(url: string): string | null {
    const host = hostOf(url);
    if (host === null || isIP(host) === 0) return null;
    return this.permits(host) ? null : host;
  }
}
