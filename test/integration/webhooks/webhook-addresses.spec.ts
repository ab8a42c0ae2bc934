import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { loadConfig } from '../../../src/config/load-config';
import { HttpWebhookSender } from '../../../src/infrastructure/webhooks/http-webhook-sender';
import { isPublicAddress, OutboundAddressPolicy } from '../../../src/infrastructure/webhooks/outbound-address-policy';
import { DELIVERY_ERRORS } from '../../../src/application/ports/delivery-error';
import { HttpAnswer, TestService } from '../../support/test-service';

describe('webhook URLs follow one address policy in sandbox and live', () => {
  let service: TestService;

  beforeAll(async () => {
    service = await TestService.start({ store: 'postgres' });
  });
  afterAll(async () => {
    await service.close();
  });

  const configure = (partnerId: string, body: Record<string, unknown>): Promise<HttpAnswer> =>
    service.admin('PATCH', `/partners/${partnerId}/settings`, body);

  it.each(['sandbox', 'live'])(
    'a %s webhook URL whose host is a private, loopback, link-local or metadata address, or localhost, is refused at once and changes nothing',
    async (environment) => {
      const { partnerId, sandboxKey } = await service.createPartner('IN', 'Private URL Partner');
      const approved = await service.admin('POST', `/partners/${partnerId}/kyc`, { status: 'approved' });
      for (const url of [
        'https://127.0.0.1:18081/hooks',
        'https://127.0.0.1:5432/',
        'https://10.1.2.3/hooks',
        'https://169.254.169.254/latest',
        'https://0x7f.1/hooks',
        'https://[::1]/hooks',
        'https://[::ffff:192.168.1.1]/hooks',
        'https://[::127.0.0.1]/hooks',
        'https://localhost/hooks',
        'https://api.localhost/hooks',
      ]) {
        const refused = await configure(partnerId, { environment, webhook_url: url });
        expect({ url, status: refused.status, body: refused.body }).toEqual({
          url,
          status: 400,
          body: {
            error: 'validation_failed',
            detail: expect.stringMatching(/^webhook_url: webhooks must reach a public address, not /),
          },
        });
      }
      const key = environment === 'live' ? approved.body.live_api_key : sandboxKey;
      expect((await service.partner('GET', '/settings', key)).body).toMatchObject({
        webhook_url: null,
        webhook_secret_set: false,
      });
      expect(
        (await service.partner('PATCH', '/settings', key, { webhook_url: 'https://127.0.0.1:6379/' })).status,
      ).toBe(400);
      expect((await configure(partnerId, { environment, webhook_url: 'https://203.0.114.10/hooks' })).status).toBe(200);
    },
  );
});

describe('webhook targets must be permitted addresses in every environment', () => {
  let server: Server;
  let port: number;
  let hits = 0;

  beforeAll(async () => {
    server = createServer((_, response) => {
      hits += 1;
      response.end('ok');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  beforeEach(() => {
    hits = 0;
  });

  const publicOnly = new OutboundAddressPolicy(false);
  const privateDeployment = new OutboundAddressPolicy(true);
  const send = (url: string, environment: 'live' | 'sandbox', policy = publicOnly) =>
    new HttpWebhookSender(2000, policy).send({
      url,
      environment,
      body: '{}',
      headers: { 'content-type': 'application/json' },
    });
  const refused = { kind: 'error', error: DELIVERY_ERRORS.addressNotAllowed, latencyMs: expect.any(Number) };

  it.each(['live', 'sandbox'] as const)(
    'a %s delivery to 127.0.0.1 is refused as not a permitted address, and nothing is sent',
    async (environment) => {
      expect(await send(`http://127.0.0.1:${port}/hook`, environment)).toEqual(refused);
      expect(hits).toBe(0);
    },
  );

  it.each(['live', 'sandbox'] as const)(
    'a %s delivery to a name that resolves to a loopback address is refused after DNS resolution',
    async (environment) => {
      expect(await send(`http://localhost:${port}/hook`, environment)).toEqual(refused);
      expect(hits).toBe(0);
    },
  );

  it('a delivery to IPv6 loopback or an IPv4-mapped loopback literal is refused', async () => {
    for (const host of ['[::1]', '[::ffff:127.0.0.1]']) {
      expect(await send(`http://${host}:${port}/hook`, 'sandbox')).toEqual(refused);
    }
    expect(hits).toBe(0);
  });

  it('a private deployment that opts in reaches the loopback receiver, in sandbox and live', async () => {
    for (const environment of ['sandbox', 'live'] as const) {
      expect(await send(`http://127.0.0.1:${port}/hook`, environment, privateDeployment)).toEqual({
        kind: 'response',
        statusCode: 200,
        latencyMs: expect.any(Number),
      });
    }
    expect(hits).toBe(2);
  });

  it('a metadata endpoint stays refused in a private deployment', async () => {
    expect(await send('http://169.254.169.254/latest/meta-data/', 'sandbox', privateDeployment)).toEqual(refused);
  });

  it('a closed port and a server that hangs up are reported with one generic category, never the socket error', async () => {
    const hangingUp = createServer((request) => request.socket.destroy());
    await new Promise<void>((resolve) => hangingUp.listen(0, '127.0.0.1', resolve));
    const hangingUpPort = (hangingUp.address() as AddressInfo).port;
    try {
      const closedPort = await send('http://127.0.0.1:1/hook', 'sandbox', privateDeployment);
      const hangUp = await send(`http://127.0.0.1:${hangingUpPort}/hook`, 'sandbox', privateDeployment);
      expect([closedPort, hangUp]).toEqual([
        { kind: 'error', error: DELIVERY_ERRORS.connectionFailed, latencyMs: expect.any(Number) },
        { kind: 'error', error: DELIVERY_ERRORS.connectionFailed, latencyMs: expect.any(Number) },
      ]);
    } finally {
      await new Promise((resolve) => hangingUp.close(resolve));
    }
  });

  it('an answer that is not complete within the timeout is a failed attempt, also when the receiver keeps trickling bytes', async () => {
    const stalling = createServer((request, response) => {
      request.resume();
      if (request.url === '/silent') return; // never answers
      response.writeHead(200);
      const drip = setInterval(() => response.write('.'), 20);
      response.on('close', () => clearInterval(drip));
    });
    await new Promise<void>((resolve) => stalling.listen(0, '127.0.0.1', resolve));
    const stallingPort = (stalling.address() as AddressInfo).port;
    try {
      for (const path of ['/silent', '/trickle']) {
        const result = await new HttpWebhookSender(200, new OutboundAddressPolicy(true)).send({
          url: `http://127.0.0.1:${stallingPort}${path}`,
          environment: 'sandbox',
          body: '{}',
          headers: {},
        });
        expect(result).toEqual({ kind: 'error', error: DELIVERY_ERRORS.timeout, latencyMs: expect.any(Number) });
        if (result.kind === 'error') expect(result.latencyMs).toBeLessThan(2000);
      }
    } finally {
      stalling.closeAllConnections();
      await new Promise((resolve) => stalling.close(resolve));
    }
  });

  it('the service waits about 10 seconds for an answer by default', () => {
    expect(
      loadConfig({ EVENT_STORE: 'embedded', API_KEY_SECRET: 'x'.repeat(32), ADMIN_TOKEN: 'y'.repeat(32) })
        .webhookTimeoutMs,
    ).toBe(10_000);
  });

  it.each([
    ['10.1.2.3', false],
    ['192.168.1.10', false],
    ['172.16.5.4', false],
    ['169.254.169.254', false],
    ['127.0.0.1', false],
    ['100.64.0.1', false],
    ['0.0.0.0', false],
    ['::1', false],
    ['::', false],
    ['fe80::1', false],
    ['fc00::1', false],
    ['fd12:3456::1', false],
    ['::ffff:10.0.0.1', false],
    ['::ffff:127.0.0.1', false],
    ['::127.0.0.1', false],
    ['100.100.100.200', false],
    ['fd00:ec2::254', false],
    ['not-an-ip', false],
    ['8.8.8.8', true],
    ['203.0.114.10', true],
    ['2001:4860:4860::8888', true],
  ])('%s is a public address that a webhook may reach: %s', (address, expected) => {
    expect(isPublicAddress(address)).toBe(expected);
  });
});
