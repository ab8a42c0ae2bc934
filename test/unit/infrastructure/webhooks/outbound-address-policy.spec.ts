import { isIP } from 'node:net';
import { ipv6Bytes, translatedIpv4 } from '../../../../src/infrastructure/webhooks/ipv6-translation';
import { OutboundAddressPolicy } from '../../../../src/infrastructure/webhooks/outbound-address-policy';

const publicOnly = new OutboundAddressPolicy(false);
const privateDeployment = new OutboundAddressPolicy(true);

/** Refused to a public-only deployment, and to a private one too when `always`. */
const expectRefused = (address: string, always: boolean) => {
  expect({ address, permitted: publicOnly.permits(address) }).toEqual({ address, permitted: false });
  expect({ address, privateDeployment: privateDeployment.permits(address) }).toEqual({
    address,
    privateDeployment: !always,
  });
  expect(publicOnly.hostProblem(isIP(address) === 6 ? `https://[${address}]/hook` : `https://${address}/hook`)).toMatch(
    /^webhook_url: /,
  );
};

describe('the webhook address policy: IPv6 transition ranges and cloud metadata', () => {
  it('reads the bytes of compressed, full and dotted-tail IPv6 addresses', () => {
    expect(ipv6Bytes('64:ff9b::a00:1')).toEqual([0, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0, 10, 0, 0, 1]);
    expect(ipv6Bytes('64:ff9b::10.0.0.1')).toEqual(ipv6Bytes('64:ff9b:0:0:0:0:a00:1'));
    expect(ipv6Bytes('::')).toEqual(Array<number>(16).fill(0));
    expect(ipv6Bytes('10.0.0.1')).toBeNull();
    expect(translatedIpv4('::ffff:a9fe:a9fe')).toBe('169.254.169.254');
    expect(translatedIpv4('2001:4860:4860::8888')).toBeNull();
  });

  it('NAT64 well-known prefix 64:ff9b::/96 is judged by the IPv4 address it carries', () => {
    for (const address of ['64:ff9b::10.0.0.1', '64:ff9b::c0a8:101', '64:ff9b::127.0.0.1', '64:ff9b::100.64.0.1'])
      expectRefused(address, false);
    expectRefused('64:ff9b::169.254.169.254', true);
    expect(publicOnly.permits('64:ff9b::8.8.8.8')).toBe(true);
  });

  it('NAT64 local-use 64:ff9b:1::/48 is refused always', () => {
    expectRefused('64:ff9b:1::808:808', true);
    expectRefused('64:ff9b:1:ffff::a00:1', true);
  });

  it('6to4 2002::/16 is refused always, whatever IPv4 address it embeds', () => {
    expectRefused('2002:a00:1::1', true); // 10.0.0.1
    expectRefused('2002:a9fe:a9fe::1', true); // 169.254.169.254
    expectRefused('2002:808:808::1', true); // 8.8.8.8
  });

  it('Teredo 2001::/32 is refused always', () => {
    expectRefused('2001:0:4136:e378:8000:63bf:3fff:fdd2', true);
    expectRefused('2001::1', true);
    // Next to it, ordinary global unicast stays public.
    expect(publicOnly.permits('2001:4860:4860::8888')).toBe(true);
    expect(publicOnly.permits('2001:1::1')).toBe(true);
  });

  it('IPv4-mapped addresses are judged by the IPv4 address they carry', () => {
    expectRefused('::ffff:10.0.0.1', false);
    expectRefused('::ffff:169.254.169.254', true);
    expect(publicOnly.permits('::ffff:8.8.8.8')).toBe(true);
  });

  it.each([
    ['169.254.169.254', 'AWS, GCP, Azure, Oracle, DigitalOcean, OpenStack instance metadata'],
    ['169.254.170.2', 'AWS ECS task metadata'],
    ['169.254.170.23', 'AWS EKS Pod Identity'],
    ['fd00:ec2::254', 'AWS instance metadata over IPv6'],
    ['fd00:ec2::23', 'AWS EKS Pod Identity over IPv6'],
    ['fd20:ce::254', 'GCP metadata over IPv6'],
    ['168.63.129.16', 'Azure platform (wireserver)'],
    ['100.100.100.200', 'Alibaba Cloud metadata'],
    ['192.0.0.192', 'Oracle Cloud metadata'],
    ['169.254.0.23', 'Tencent Cloud metadata'],
  ])('%s (%s) is refused always', (address) => {
    expectRefused(address, true);
  });

  it.each([
    'metadata.google.internal',
    'metadata.google.internal.',
    'METADATA.google.internal',
    'metadata',
    'instance-data.ec2.internal',
    'metadata.tencentyun.com',
  ])('the metadata name %s is refused at once, private deployments included', (name) => {
    expect(publicOnly.hostProblem(`https://${name}/computeMetadata/v1/`)).toMatch(
      /^webhook_url: webhooks may not reach/,
    );
    expect(privateDeployment.hostProblem(`https://${name}/`)).toMatch(/^webhook_url: webhooks may not reach/);
  });

  it('documentation, discard and site-local ranges are not public', () => {
    for (const address of ['192.0.2.1', '198.51.100.7', '203.0.113.9', '2001:db8::1', '100::1', 'fec0::1'])
      expectRefused(address, false);
  });
});
