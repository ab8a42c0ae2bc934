import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createPartnerClient, isDryRun, verifyWebhookSignature } from '../../../clients/typescript/src';
import { dataOf } from '../../support/partner-client';
import { RecordingReceiver } from '../../support/recording-receiver';
import { SANDBOX_PHONES, TestService } from '../../support/test-service';
import { SERVICE_START_TIMEOUT_MS } from '../../support/timeouts';

describe('the TypeScript client package (clients/typescript) against a running service', () => {
  let service: TestService;
  let receiver: RecordingReceiver;

  beforeAll(async () => {
    // The receiver listens on 127.0.0.1: a private deployment's opt-in.
    service = await TestService.start({ store: 'postgres', env: { WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true' } });
    receiver = await RecordingReceiver.start();
  }, SERVICE_START_TIMEOUT_MS);
  afterAll(async () => {
    await receiver.stop();
    await service.close();
  });

  const now = (): number => service.clock.now().getTime();

  it('places a topup, replays it with the same Idempotency-Key, and lists it', async () => {
    const { sandboxKey } = await service.createPartner('IN', 'Client Partner');
    const client = createPartnerClient({ baseUrl: `${service.url}/`, apiKey: sandboxKey });
    const idempotencyKey = `client-${randomUUID()}`;
    const send = () =>
      client.POST('/v1/partner/topup', {
        params: { header: { 'Idempotency-Key': idempotencyKey } },
        body: { operator_id: 101, phone: SANDBOX_PHONES.IN('0001'), amount: 100, reference: 'client-1' },
      });
    const first = await send();
    expect(first.response.status).toBe(200);
    expect(first.data).toMatchObject({ status: 'PENDING', balance_after: '900.00', reference: 'client-1' });
    const replay = await send();
    expect(replay.response.headers.get('idempotent-replay')).toBe('true');
    expect(replay.data).toEqual(first.data);
    await service.settle();
    const listed = await dataOf(
      client.GET('/v1/partner/transactions', { params: { query: { reference: 'client-1' } } }),
    );
    expect(listed.transactions.map((order) => [order.order_id, order.status])).toEqual([
      [first.data && !isDryRun(first.data) ? first.data.order_id : 'not an order', 'SUCCESS'],
    ]);
  });

  it('gives a refusal as the typed Error body with its status', async () => {
    const { sandboxKey } = await service.createPartner('IN', 'Client Refusals');
    const client = createPartnerClient({ baseUrl: service.url, apiKey: sandboxKey });
    const refused = await client.POST('/v1/partner/topup', {
      params: { header: { 'Idempotency-Key': `client-${randomUUID()}` } },
      body: { operator_id: 101, phone: SANDBOX_PHONES.IN('0001'), amount: 5000 },
    });
    expect(refused.response.status).toBe(402);
    expect(refused.data).toBeUndefined();
    expect(refused.error).toEqual({ error: 'insufficient_balance', detail: expect.any(String) });
    const missing = await client.GET('/v1/partner/transactions/{order_id}', {
      params: { path: { order_id: 'ord_does_not_exist' } },
    });
    expect([missing.response.status, missing.error?.error]).toEqual([404, 'not_found']);
    const wrongKey = createPartnerClient({ baseUrl: service.url, apiKey: `svc_test_${'Q'.repeat(32)}` });
    expect((await wrongKey.GET('/v1/partner/balance')).error?.error).toBe('invalid_api_key');
    expect(() => createPartnerClient({ baseUrl: service.url, apiKey: 'not-a-key' })).toThrow(/svc_live_ or svc_test_/);
  });

  it('verifies real webhook deliveries, and refuses a changed body, another secret and an old timestamp', async () => {
    const { sandboxKey } = await service.createPartner('IN', 'Client Webhooks');
    const client = createPartnerClient({ baseUrl: service.url, apiKey: sandboxKey });
    const configured = await dataOf(client.PATCH('/v1/partner/settings', { body: { webhook_url: receiver.url } }));
    const secret = configured.webhook_secret as string;
    expect(secret).toEqual(expect.any(String));
    const seen = receiver.received.length;
    await dataOf(
      client.POST('/v1/partner/topup', {
        params: { header: { 'Idempotency-Key': `client-${randomUUID()}` } },
        body: { operator_id: 101, phone: SANDBOX_PHONES.IN('0001'), amount: 100 },
      }),
    );
    await service.settle();
    await receiver.receivedCount(seen + 1);
    const delivery = receiver.received[seen];
    const header = delivery.headers['x-partner-signature'];

    expect(verifyWebhookSignature(header, delivery.rawBody, secret, { now })).toEqual({
      ok: true,
      timestamp: Math.floor(now() / 1000),
    });
    expect(verifyWebhookSignature(header, Buffer.from(delivery.rawBody), [secret], { now }).ok).toBe(true);
    expect(
      verifyWebhookSignature(header, delivery.rawBody.replace('"100.0000"', '"900.0000"'), secret, { now }),
    ).toEqual({ ok: false, reason: 'no signature matches' });
    expect(verifyWebhookSignature(header, delivery.rawBody, 'whsec_another_secret', { now })).toEqual({
      ok: false,
      reason: 'no signature matches',
    });
    expect(verifyWebhookSignature(header, delivery.rawBody, secret, { now: () => now() + 301_000 })).toEqual({
      ok: false,
      reason: 'timestamp outside the tolerance',
    });
    expect(verifyWebhookSignature(undefined, delivery.rawBody, secret, { now }).ok).toBe(false);

    // During a rotation every delivery carries two signatures: the old secret and the new one both verify.
    const rotated = await dataOf(client.POST('/v1/partner/settings/webhook-secret/rotate'));
    await dataOf(
      client.POST('/v1/partner/topup', {
        params: { header: { 'Idempotency-Key': `client-${randomUUID()}` } },
        body: { operator_id: 101, phone: SANDBOX_PHONES.IN('0002'), amount: 100 },
      }),
    );
    await service.settle();
    await receiver.receivedCount(seen + 2);
    const afterRotation = receiver.received[seen + 1];
    const signatures = afterRotation.headers['x-partner-signature'];
    expect(String(signatures).match(/v1=/g)).toHaveLength(2);
    expect(verifyWebhookSignature(signatures, afterRotation.rawBody, secret, { now }).ok).toBe(true);
    expect(
      verifyWebhookSignature(signatures, afterRotation.rawBody, rotated.webhook_secret as string, { now }).ok,
    ).toBe(true);
  });

  it('verifies the worked example of docs/webhooks.md', () => {
    const guide = readFileSync(join(__dirname, '..', '..', '..', 'docs', 'webhooks.md'), 'utf8');
    const body = /```text\n(\{"event_id"[^\n]+)\n```/.exec(guide)?.[1];
    const header = /X-Partner-Signature: (t=1767225600,v1=[0-9a-f]{64})/.exec(guide)?.[1];
    expect(body && header).toBeTruthy();
    const at = () => 1767225600 * 1000;
    expect(verifyWebhookSignature(header, body as string, 'whsec_example_secret_do_not_use', { now: at })).toEqual({
      ok: true,
      timestamp: 1767225600,
    });
    expect(verifyWebhookSignature(header, `${body} `, 'whsec_example_secret_do_not_use', { now: at }).ok).toBe(false);
  });
});
