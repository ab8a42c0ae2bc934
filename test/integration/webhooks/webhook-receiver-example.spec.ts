import { ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { IncomingHttpHeaders, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { HttpAnswer, SANDBOX_PHONES, TestService } from '../../support/test-service';

/** The example exactly as published in docs/examples and in docs/webhooks.md. */
const EXAMPLE_PATH = resolve(__dirname, '../../../docs/examples/webhook-receiver.js');
const GUIDE_PATH = resolve(__dirname, '../../../docs/webhooks.md');

interface ReceiverOptions {
  secret: string | string[];
  onEvent: (event: Record<string, unknown>) => unknown;
  toleranceSeconds?: number;
  now?: () => number;
}
interface ExampleModule {
  createReceiver(options: ReceiverOptions): Server;
  verifySignature(
    header: string | undefined,
    rawBody: Buffer,
    secrets: string[],
    options?: { toleranceSeconds?: number; now?: () => number },
  ): { ok: boolean; reason?: string };
  TOLERANCE_SECONDS: number;
}
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the example is plain CommonJS, loaded as a reader would
const example = require(EXAMPLE_PATH) as ExampleModule;

interface Captured {
  headers: IncomingHttpHeaders;
  rawBody: string;
}

/** Starts the example receiver on 127.0.0.1 and keeps a copy of every request it gets (for the replay tests). */
async function startExample(
  secret: string | string[],
): Promise<{ server: Server; url: string; events: Record<string, unknown>[]; captured: Captured[] }> {
  const events: Record<string, unknown>[] = [];
  const captured: Captured[] = [];
  const server = example.createReceiver({ secret, onEvent: (event) => void events.push(event) });
  server.prependListener('request', (request) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () =>
      captured.push({ headers: request.headers, rawBody: Buffer.concat(chunks).toString('utf8') }),
    );
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`, events, captured };
}

const stop = async (server: Server): Promise<void> => {
  server.closeAllConnections();
  await new Promise((done) => server.close(done));
};

/** Sends a request as a forger would: chosen headers, chosen body. */
async function post(
  url: string,
  headers: IncomingHttpHeaders,
  body: string,
): Promise<{ status: number; text: string }> {
  const forwarded: Record<string, string> = {};
  for (const name of ['content-type', 'x-partner-signature', 'x-partner-event-id', 'x-partner-event']) {
    const value = headers[name];
    if (typeof value === 'string') forwarded[name] = value;
  }
  const response = await fetch(url, { method: 'POST', headers: forwarded, body });
  return { status: response.status, text: await response.text() };
}

describe('the webhook receiver example in docs/examples/webhook-receiver.js', () => {
  let service: TestService;

  beforeAll(async () => {
    // The example receiver listens on 127.0.0.1: a private deployment's opt-in.
    service = await TestService.start({ store: 'postgres', env: { WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true' } });
  });
  afterAll(async () => {
    await service.close();
  });

  const configure = (partnerId: string, body: Record<string, unknown>): Promise<HttpAnswer> =>
    service.admin('PATCH', `/partners/${partnerId}/settings`, { environment: 'sandbox', ...body });

  const topup = async (key: string, suffix: string): Promise<string> => {
    const placed = await service.topup(
      key,
      { operator_id: 101, phone: SANDBOX_PHONES.IN(suffix), amount: 100, reference: `example-${suffix}` },
      `example-${randomUUID()}`,
    );
    expect(placed.status).toBe(200);
    return placed.body.order_id;
  };

  const onlyDelivery = async (key: string): Promise<Record<string, any>> => {
    const answer = await service.partner('GET', '/webhook-deliveries', key);
    expect(answer.body.deliveries).toHaveLength(1);
    return answer.body.deliveries[0];
  };

  /** A partner whose webhook URL points at `url`; returns its key and the secret it was given. */
  async function partnerSendingTo(url: string | null): Promise<{ partnerId: string; key: string; secret: string }> {
    const { partnerId, sandboxKey } = await service.createPartner('IN', 'Example Receiver Partner');
    const configured = await configure(partnerId, { webhook_url: url ?? 'http://127.0.0.1:9/placeholder' });
    expect(configured.status).toBe(200);
    return { partnerId, key: sandboxKey, secret: configured.body.webhook_secret };
  }

  it('accepts a real delivery once, answers 200 to the duplicate without handling it again, and refuses a tampered copy with 400', async () => {
    const { partnerId, key, secret } = await partnerSendingTo(null);
    const receiver = await startExample(secret);
    try {
      expect((await configure(partnerId, { webhook_url: receiver.url })).status).toBe(200);
      const orderId = await topup(key, '0001');
      await service.settle();

      expect(receiver.events).toEqual([
        expect.objectContaining({ event: 'transaction.succeeded', order_id: orderId, reference: 'example-0001' }),
      ]);
      let delivery = await onlyDelivery(key);
      expect(delivery.state).toBe('SUCCEEDED');
      expect(delivery.attempts.map((attempt: Record<string, unknown>) => attempt.status_code)).toEqual([200]);

      // The operator re-sends the same event: the example recognises its id and does not handle it twice.
      expect((await service.admin('POST', `/webhook-deliveries/${delivery.delivery_id}/resend`)).status).toBe(202);
      await service.settle();
      expect(receiver.events).toHaveLength(1);
      delivery = await onlyDelivery(key);
      expect(delivery.attempts.map((attempt: Record<string, unknown>) => attempt.status_code)).toEqual([200, 200]);

      // A copy with a changed amount, a new event id, or no signature is refused.
      const [original] = receiver.captured;
      const changedAmount = original.rawBody.replace(/"amount_local":"[^"]*"/, '"amount_local":"9999.0000"');
      const changedId = original.rawBody.replace(/"event_id":"[^"]*"/, `"event_id":"${randomUUID()}"`);
      expect(changedAmount).not.toBe(original.rawBody);
      expect(changedId).not.toBe(original.rawBody);
      expect((await post(receiver.url, original.headers, changedAmount)).status).toBe(400);
      expect((await post(receiver.url, original.headers, changedId)).status).toBe(400);
      expect(
        (await post(receiver.url, { ...original.headers, 'x-partner-signature': undefined }, original.rawBody)).status,
      ).toBe(400);
      expect(
        (await post(receiver.url, { ...original.headers, 'x-partner-signature': 'v1=abc' }, original.rawBody)).status,
      ).toBe(400);
      // The untouched copy is a duplicate: acknowledged, not handled again.
      expect(await post(receiver.url, original.headers, original.rawBody)).toEqual({
        status: 200,
        text: 'duplicate ignored\n',
      });
      expect(receiver.events).toHaveLength(1);
    } finally {
      await stop(receiver.server);
    }
  });

  it('accepts a transaction.failed event the same way', async () => {
    const { partnerId, key, secret } = await partnerSendingTo(null);
    const receiver = await startExample(secret);
    try {
      expect((await configure(partnerId, { webhook_url: receiver.url })).status).toBe(200);
      const orderId = await topup(key, '0002');
      await service.settle();
      expect(receiver.events).toEqual([expect.objectContaining({ event: 'transaction.failed', order_id: orderId })]);
    } finally {
      await stop(receiver.server);
    }
  });

  it('during a rotation a receiver that still has only the old secret keeps accepting', async () => {
    const { partnerId, key, secret: oldSecret } = await partnerSendingTo(null);
    const receiver = await startExample(oldSecret);
    try {
      expect((await configure(partnerId, { webhook_url: receiver.url })).status).toBe(200);
      const rotated = await configure(partnerId, { rotate_webhook_secret: true });
      expect(rotated.body.webhook_secret).not.toBe(oldSecret);
      await topup(key, '0001');
      await service.settle();
      expect(receiver.events).toHaveLength(1);
    } finally {
      await stop(receiver.server);
    }
  });

  describe('run as a script', () => {
    let child: ChildProcessWithoutNullStreams | null = null;

    afterEach(async () => {
      const running = child;
      child = null;
      if (running && running.exitCode === null) {
        const exited = new Promise((done) => running.once('exit', done));
        running.kill('SIGTERM');
        await exited;
      }
    });

    /** Resolves with the first stdout line that matches. */
    const lineMatching = (process: ChildProcessWithoutNullStreams, pattern: RegExp): Promise<string> =>
      new Promise((done, fail) => {
        let buffered = '';
        const onData = (chunk: string) => {
          buffered += chunk;
          const line = buffered.split('\n').find((candidate) => pattern.test(candidate));
          if (line) {
            process.stdout.off('data', onData);
            done(line);
          }
        };
        process.stdout.setEncoding('utf8').on('data', onData);
        process.once('exit', (code) => fail(new Error(`receiver exited (${code}) before printing ${pattern}`)));
      });

    it('`node webhook-receiver.js` with WEBHOOK_SECRET and PORT receives and prints a real event', async () => {
      const { partnerId, key, secret } = await partnerSendingTo(null);
      const started = spawn(process.execPath, [EXAMPLE_PATH], {
        env: { PATH: process.env.PATH ?? '', WEBHOOK_SECRET: secret, PORT: '0' },
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      child = started;
      const listening = await lineMatching(started, /^listening on /);
      const url = `${listening.replace(/^listening on /, '').trim()}/webhooks`;
      const printed = lineMatching(started, /"received"/);

      expect((await configure(partnerId, { webhook_url: url })).status).toBe(200);
      const orderId = await topup(key, '0001');
      await service.settle();
      expect(JSON.parse(await printed)).toEqual({
        received: 'transaction.succeeded',
        event_id: expect.any(String),
        order_id: orderId,
      });
      expect((await onlyDelivery(key)).state).toBe('SUCCEEDED');
    });

    it('refuses to start without WEBHOOK_SECRET', async () => {
      const started = spawn(process.execPath, [EXAMPLE_PATH], {
        env: { PATH: process.env.PATH ?? '', PORT: '0' },
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      const code = await new Promise((done) => started.once('exit', done));
      expect(code).toBe(1);
    });
  });

  it('docs/webhooks.md shows this exact file as its receiver example', () => {
    const guide = readFileSync(GUIDE_PATH, 'utf8');
    const source = readFileSync(EXAMPLE_PATH, 'utf8');
    const blocks = [...guide.matchAll(/```js\n([\s\S]*?)```/g)].map((match) => match[1]);
    expect(blocks).toContain(source);
  });

  it('the worked signature example in docs/webhooks.md verifies, and fails once a byte of its body changes', () => {
    const guide = readFileSync(GUIDE_PATH, 'utf8');
    const secret = /`(whsec_example_secret_do_not_use)`/.exec(guide)?.[1];
    const body = /```text\n(\{"event_id".*\})\n```/.exec(guide)?.[1];
    const header = /```text\nX-Partner-Signature: (t=\d+,v1=[0-9a-f]{64})\n```/.exec(guide)?.[1];
    expect([secret, body, header].every(Boolean)).toBe(true);
    const signedAt = Number(/^t=(\d+)/.exec(header!)?.[1]) * 1000;
    const at = () => signedAt;
    expect(example.verifySignature(header, Buffer.from(body!), [secret!], { now: at }).ok).toBe(true);
    expect(
      example.verifySignature(header, Buffer.from(body!.replace('invoice-1042', 'invoice-1043')), [secret!], {
        now: at,
      }).ok,
    ).toBe(false);
  });

  // Last in this file: it moves the service's clock ahead of real time.
  it('refuses a delivery signed with another secret, and a delivery whose timestamp is more than 5 minutes off; the service retries those', async () => {
    const { partnerId, key, secret } = await partnerSendingTo(null);
    const wrong = await startExample(`${secret}-not-it`);
    const { partnerId: otherId, key: otherKey, secret: otherSecret } = await partnerSendingTo(null);
    const right = await startExample(otherSecret);
    try {
      expect((await configure(partnerId, { webhook_url: wrong.url })).status).toBe(200);
      await topup(key, '0001');
      await service.settle();
      expect(wrong.events).toEqual([]);
      expect(await onlyDelivery(key)).toMatchObject({
        state: 'RETRYING',
        attempts: [expect.objectContaining({ status_code: 400 })],
      });

      // The service's clock runs 6 minutes ahead of the receiver's: the signature is valid but stale.
      expect((await configure(otherId, { webhook_url: right.url })).status).toBe(200);
      service.clock.advance(6 * 60_000);
      await topup(otherKey, '0001');
      await service.settle();
      expect(right.events).toEqual([]);
      expect(await onlyDelivery(otherKey)).toMatchObject({
        state: 'RETRYING',
        attempts: [expect.objectContaining({ status_code: 400 })],
      });
      const [stale] = right.captured;
      const header = stale.headers['x-partner-signature'] as string;
      expect(example.verifySignature(header, Buffer.from(stale.rawBody), [otherSecret]).ok).toBe(false);
      const signedAt = Number(/^t=(\d+)/.exec(header)?.[1]) * 1000;
      expect(
        example.verifySignature(header, Buffer.from(stale.rawBody), [otherSecret], { now: () => signedAt + 5 * 60_000 })
          .ok,
      ).toBe(true);
      expect(
        example.verifySignature(header, Buffer.from(stale.rawBody), [otherSecret], {
          now: () => signedAt + 5 * 60_000 + 1000,
        }).ok,
      ).toBe(false);
    } finally {
      await stop(wrong.server);
      await stop(right.server);
    }
  });
});
