import { ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { waitFor } from '../../support/wait-for';
import { SANDBOX_PHONES, TestService } from '../../support/test-service';

const CLI = resolve(__dirname, '../../../tools/partner-cli/partner-cli.cjs');
/** The receiver example of docs/webhooks.md, which checks signatures as a partner's would. */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the example is plain CommonJS, loaded as a reader would
const example = require(resolve(__dirname, '../../../docs/examples/webhook-receiver.js')) as {
  createReceiver(options: { secret: string; onEvent: (event: Record<string, unknown>) => unknown }): Server;
};

interface Running {
  child: ChildProcessWithoutNullStreams;
  stdout: string;
  stderr: string;
  code: number | null | undefined;
}

function start(args: string[], env: Record<string, string>): Running {
  const child = spawn(process.execPath, [CLI, ...args], { env: { PATH: process.env.PATH, ...env }, stdio: 'pipe' });
  const running: Running = { child, stdout: '', stderr: '', code: undefined };
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (running.stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (running.stderr += chunk));
  child.on('close', (code) => (running.code = code));
  return running;
}

async function run(args: string[], env: Record<string, string>): Promise<Running> {
  const running = start(args, env);
  await waitFor(() => running.code !== undefined, { what: `partner-cli ${args[0]} to exit` });
  return running;
}

/**
 * A local endpoint for the forwarder: requests wait until the example receiver exists, which
 * needs the signing secret the forwarder prints when it starts.
 */
class LocalEndpoint {
  readonly events: Record<string, unknown>[] = [];
  readonly answered: number[] = [];
  private receiver: Server | null = null;
  private waiting: [IncomingMessage, ServerResponse][] = [];
  private constructor(private readonly server: Server) {}

  static async start(): Promise<LocalEndpoint> {
    const server = createServer();
    const endpoint = new LocalEndpoint(server);
    server.on('request', (request: IncomingMessage, response: ServerResponse) => {
      response.on('finish', () => endpoint.answered.push(response.statusCode));
      if (endpoint.receiver) endpoint.receiver.emit('request', request, response);
      else endpoint.waiting.push([request, response]);
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    return endpoint;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
  }

  verifyWith(secret: string): void {
    this.receiver = example.createReceiver({ secret, onEvent: (event) => void this.events.push(event) });
    for (const [request, response] of this.waiting.splice(0)) this.receiver.emit('request', request, response);
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((done) => this.server.close(done));
  }
}

describe('partner-cli', () => {
  let service: TestService;
  const children: Running[] = [];

  beforeAll(async () => {
    service = await TestService.start({ store: 'postgres' });
  });
  afterAll(async () => {
    for (const running of children) if (running.code === undefined) running.child.kill('SIGTERM');
    await service.close();
  });

  const envOf = (key: string): Record<string, string> => ({ PARTNER_API_KEY: key, PARTNER_API_URL: service.url });

  async function topup(key: string, suffix: string): Promise<string> {
    const placed = await service.topup(
      key,
      { operator_id: 101, phone: SANDBOX_PHONES.IN(suffix), amount: 100 },
      `cli-${randomUUID()}`,
    );
    expect(placed.status).toBe(200);
    return placed.body.order_id;
  }

  it('listen forwards each event to the local URL, signed so that the documented receiver accepts it', async () => {
    const { sandboxKey: key } = await service.createPartner('IN', 'Laptop');
    await topup(key, '0001');
    await service.settle();
    const endpoint = await LocalEndpoint.start();
    try {
      const listening = start(['listen', '--forward-to', endpoint.url], envOf(key));
      children.push(listening);
      await waitFor(() => /whsec_[A-Za-z0-9_-]+/.test(listening.stdout), { what: 'the signing secret' });
      endpoint.verifyWith(/whsec_[A-Za-z0-9_-]+/.exec(listening.stdout)![0]);
      await waitFor(() => endpoint.events.length === 1, { what: 'the first forwarded event' });

      await topup(key, '0002');
      await service.settle();
      await waitFor(() => endpoint.events.length === 2, { what: 'the event that happened while listening' });
      const feed = await service.partner('GET', '/events', key);
      expect(endpoint.events).toEqual(feed.body.events);
      expect(endpoint.answered).toEqual([200, 200]);
      await waitFor(() => listening.stdout.split('\n').filter((line) => line.includes('-> 200')).length === 2, {
        what: 'a line per event',
      });
      expect(listening.stdout).toContain(`transaction.failed ${feed.body.events[1].event_id}`);
      expect(listening.stdout.match(/whsec_/g)).toHaveLength(1);
      expect(listening.stdout + listening.stderr).not.toContain(key);

      listening.child.kill('SIGTERM');
      await waitFor(() => listening.code !== undefined, { what: 'listen to stop' });
      expect(listening.code).toBe(0);
    } finally {
      await endpoint.stop();
    }
  });

  it('listen stops when its key is revoked: the stream says why, nothing more is forwarded, and the key is refused', async () => {
    const { sandboxKey } = await service.createPartner('IN', 'Revoked Laptop');
    const agent = await service.partner('POST', '/keys', sandboxKey, { label: 'laptop', scope: 'read_only' });
    await topup(sandboxKey, '0001');
    await service.settle();
    const endpoint = await LocalEndpoint.start();
    try {
      const listening = start(['listen', '--forward-to', endpoint.url], envOf(agent.body.api_key));
      children.push(listening);
      await waitFor(() => /whsec_[A-Za-z0-9_-]+/.test(listening.stdout), { what: 'the signing secret' });
      endpoint.verifyWith(/whsec_[A-Za-z0-9_-]+/.exec(listening.stdout)![0]);
      await waitFor(() => endpoint.events.length === 1, { what: 'the stream to be open and forwarding' });
      expect((await service.partner('DELETE', `/keys/${agent.body.key_id}`, sandboxKey)).status).toBe(200);
      await topup(sandboxKey, '0002');
      await service.settle();
      await waitFor(() => listening.code !== undefined, { what: 'listen to stop', timeoutMs: 10_000 });
      expect(listening.code).toBe(1);
      expect(listening.stderr).toMatch(/the stream ended: (key_revoked|access_change_pending)/);
      expect(listening.stderr).toMatch(/refused the stream \(401\)/);
      expect(endpoint.answered).toEqual([200]);
    } finally {
      await endpoint.stop();
    }
  });

  it('listen refuses a live key and forwards nothing', async () => {
    const { partnerId } = await service.createPartner('IN', 'Live');
    const approved = await service.admin('POST', `/partners/${partnerId}/kyc`, { status: 'approved' });
    const refused = await run(
      ['listen', '--forward-to', 'http://127.0.0.1:9/hooks'],
      envOf(approved.body.live_api_key),
    );
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/sandbox keys \(svc_test_\.\.\.\) only/);
    expect(refused.stdout).not.toContain('whsec_');
  });

  it('balance, topup and status print the API answers as JSON', async () => {
    const { sandboxKey: key } = await service.createPartner('IN', 'Manual');
    const balance = await run(['balance'], envOf(key));
    expect(balance.code).toBe(0);
    expect(JSON.parse(balance.stdout)).toMatchObject({ available: '1000.00', currency: 'INR', environment: 'sandbox' });

    const placed = await run(
      ['topup', '--operator', '101', '--phone', SANDBOX_PHONES.IN('0001'), '--amount', '99.5', '--reference', 'cli'],
      envOf(key),
    );
    expect(placed.code).toBe(0);
    const order = JSON.parse(placed.stdout);
    expect(order).toMatchObject({
      status: 'PENDING',
      amount_local: '99.5000',
      reference: 'cli',
      balance_after: '900.50',
    });
    await service.settle();

    const status = await run(['status', order.order_id], envOf(key));
    expect(status.code).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ order_id: order.order_id, status: 'SUCCESS' });

    const missing = await run(['status', 'no-such-order'], envOf(key));
    expect(missing.code).toBe(1);
    expect(JSON.parse(missing.stdout)).toMatchObject({ error: 'not_found' });
  });

  it('says what is missing without a key or with a malformed amount', async () => {
    const noKey = await run(['balance'], { PARTNER_API_URL: service.url });
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toContain('PARTNER_API_KEY');
    const { sandboxKey: key } = await service.createPartner('IN', 'Typo');
    const badAmount = await run(
      ['topup', '--operator', '101', '--phone', SANDBOX_PHONES.IN('0001'), '--amount', '1e2'],
      envOf(key),
    );
    expect(badAmount.code).toBe(2);
    expect(badAmount.stderr).toContain('--amount');
  });
});
