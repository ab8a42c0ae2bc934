import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { DELIVERY_ERRORS } from '../../../src/application/ports/delivery-error';
import { sqlOf } from '../../support/ledger';
import { RecordingReceiver, ReceivedWebhook } from '../../support/recording-receiver';
import { runCli } from '../../support/run-cli';
import { HttpAnswer, SANDBOX_PHONES, TEST_ADMIN_TOKEN, TestService } from '../../support/test-service';

const FIVE_MINUTES = 5 * 60_000;
const ONE_DAY = 24 * 60 * 60_000;
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

// ---------------------------------------------------------------------------------------------
// A verifier written from the interface text alone, independently of the service's signing code.
// ---------------------------------------------------------------------------------------------

interface ParsedSignature {
  timestamp: string;
  signatures: string[];
}

/** Splits `t=<unix>,v1=<hex>[,v1=<hex>...]`; null when the header does not have that shape. */
function parseSignatureHeader(header: string | undefined): ParsedSignature | null {
  if (!header) return null;
  let timestamp: string | undefined;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const separator = part.indexOf('=');
    if (separator < 1) return null;
    const name = part.slice(0, separator).trim();
    const value = part.slice(separator + 1).trim();
    if (name === 't') timestamp = value;
    else if (name === 'v1') signatures.push(value);
  }
  if (!timestamp || !/^\d+$/.test(timestamp) || signatures.length === 0) return null;
  return { timestamp, signatures };
}

/** HMAC-SHA256 over "<t>.<raw body>", compared in constant time, with a 5-minute tolerance on t. */
function verifyWebhook(
  header: string | undefined,
  rawBody: string,
  secret: string,
  nowMs: number,
  toleranceSeconds = 300,
): boolean {
  const parsed = parseSignatureHeader(header);
  if (!parsed) return false;
  if (Math.abs(Math.floor(nowMs / 1000) - Number(parsed.timestamp)) > toleranceSeconds) return false;
  const expected = createHmac('sha256', Buffer.from(secret, 'utf8'))
    .update(Buffer.from(`${parsed.timestamp}.${rawBody}`, 'utf8'))
    .digest();
  return parsed.signatures.some(
    (hex) => /^[0-9a-f]{64}$/i.test(hex) && timingSafeEqual(Buffer.from(hex, 'hex'), expected),
  );
}

/** Which of the header's v1 entries verify with this secret (ignoring the timestamp window). */
function entriesVerifiedBy(header: string | undefined, rawBody: string, secret: string): number[] {
  const parsed = parseSignatureHeader(header);
  if (!parsed) return [];
  const expected = createHmac('sha256', secret).update(`${parsed.timestamp}.${rawBody}`).digest();
  return parsed.signatures.flatMap((hex, index) =>
    /^[0-9a-f]{64}$/i.test(hex) && timingSafeEqual(Buffer.from(hex, 'hex'), expected) ? [index] : [],
  );
}

const headerOf = (webhook: ReceivedWebhook, name: string): string | undefined => {
  const value = webhook.headers[name];
  return Array.isArray(value) ? value[0] : value;
};

const sorted = (value: object): string[] => Object.keys(value).sort();

/** The receivers of these tests listen on 127.0.0.1: a private deployment's opt-in. */
const PRIVATE_RECEIVERS = { WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true' };

// The address policy of webhook targets is in webhook-addresses.spec.ts, delivery by several
// processes in webhook-processes.spec.ts.
describe('webhooks', () => {
  let service: TestService;
  const receivers: RecordingReceiver[] = [];

  beforeAll(async () => {
    service = await TestService.start({ store: 'postgres', env: PRIVATE_RECEIVERS });
  });
  afterAll(async () => {
    for (const receiver of receivers) await receiver.stop();
    await service.close();
  });

  const newReceiver = async (): Promise<RecordingReceiver> => {
    const receiver = await RecordingReceiver.start();
    receivers.push(receiver);
    return receiver;
  };

  /** With the break-glass token, or the token of the operator named (who is then the actor recorded). */
  const configure = async (partnerId: string, body: Record<string, unknown>, operator?: string): Promise<HttpAnswer> =>
    service.request('PATCH', `/v1/admin/partners/${partnerId}/settings`, {
      token: operator ? await service.operatorToken(operator, 'operator') : TEST_ADMIN_TOKEN,
      body,
    });

  /** A sandbox partner whose webhooks go to a fresh receiver; returns the secret shown once. */
  async function partnerWithWebhook(): Promise<{
    partnerId: string;
    key: string;
    secret: string;
    receiver: RecordingReceiver;
  }> {
    const { partnerId, sandboxKey } = await service.createPartner('IN', 'Webhook Partner');
    const receiver = await newReceiver();
    const configured = await configure(partnerId, { environment: 'sandbox', webhook_url: receiver.url });
    expect(configured.status).toBe(200);
    expect(configured.body.webhook_secret).toEqual(expect.any(String));
    return { partnerId, key: sandboxKey, secret: configured.body.webhook_secret, receiver };
  }

  async function topup(
    key: string,
    suffix: string,
    reference = `ref-${randomUUID().slice(0, 8)}`,
  ): Promise<{ orderId: string; reference: string }> {
    const placed = await service.topup(
      key,
      { operator_id: 101, phone: SANDBOX_PHONES.IN(suffix), amount: 100, reference },
      `webhook-${randomUUID()}`,
    );
    expect(placed.status).toBe(200);
    return { orderId: placed.body.order_id, reference };
  }

  async function payBill(key: string, consumerNumber: string, amount: number, reference: string): Promise<string> {
    const fetched = await service.partner('POST', '/bill-info', key, {
      biller_id: 1005,
      consumer_number: consumerNumber,
    });
    expect(fetched.status).toBe(200);
    const paid = await service.partner(
      'POST',
      '/pay-bill',
      key,
      { biller_id: 1005, consumer_number: consumerNumber, amount, reference },
      { 'idempotency-key': `webhook-bill-${randomUUID()}` },
    );
    expect(paid.status).toBe(200);
    return paid.body.order_id;
  }

  const deliveries = async (key: string): Promise<Record<string, any>[]> => {
    const answer = await service.partner('GET', '/webhook-deliveries', key);
    expect(answer.status).toBe(200);
    return answer.body.deliveries;
  };

  const transaction = async (key: string, orderId: string): Promise<Record<string, any>> =>
    (await service.partner('GET', `/transactions/${orderId}`, key)).body;

  describe('events and their signature', () => {
    it('a successful topup is announced once as transaction.succeeded with exactly the documented fields and a signature that verifies', async () => {
      const { key, secret, receiver } = await partnerWithWebhook();
      const { orderId, reference } = await topup(key, '0001');
      await service.settle();

      expect(receiver.received).toHaveLength(1);
      const [webhook] = receiver.received;
      const body = JSON.parse(webhook.rawBody);
      expect(sorted(body)).toEqual(
        ['amount_local', 'currency', 'event', 'event_id', 'operator_ref', 'order_id', 'reference', 'settled_at'].sort(),
      );
      const status = await transaction(key, orderId);
      expect(body).toEqual({
        event_id: expect.any(String),
        event: 'transaction.succeeded',
        order_id: orderId,
        operator_ref: status.operator_ref,
        amount_local: status.amount_local,
        currency: 'INR',
        reference,
        settled_at: status.settled_at,
      });
      expect(body.operator_ref).toEqual(expect.any(String));
      expect(body.amount_local).toBe('100.0000');
      expect(body.settled_at).toMatch(ISO_DATE_TIME);

      expect(headerOf(webhook, 'content-type')).toMatch(/^application\/json/);
      expect(headerOf(webhook, 'x-partner-event-id')).toBe(body.event_id);
      expect(headerOf(webhook, 'x-partner-signature')).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
      expect(
        verifyWebhook(headerOf(webhook, 'x-partner-signature'), webhook.rawBody, secret, service.clock.now().getTime()),
      ).toBe(true);
    });

    it('the signature covers the timestamp the service sent, which is the time of the delivery', async () => {
      const { key, receiver } = await partnerWithWebhook();
      await topup(key, '0001');
      await service.settle();
      const parsed = parseSignatureHeader(headerOf(receiver.received[0], 'x-partner-signature'));
      expect(Number(parsed?.timestamp)).toBe(Math.floor(service.clock.now().getTime() / 1000));
    });

    it('a tampered body, a wrong secret, an old or a future timestamp do not verify', async () => {
      const { key, secret, receiver } = await partnerWithWebhook();
      await topup(key, '0001');
      await service.settle();
      const [webhook] = receiver.received;
      const header = headerOf(webhook, 'x-partner-signature');
      const now = service.clock.now().getTime();
      const signedAt = Number(parseSignatureHeader(header)?.timestamp) * 1000;

      expect(verifyWebhook(header, webhook.rawBody, secret, now)).toBe(true);
      const tampered = webhook.rawBody.replace(/"amount_local":"[^"]*"/, '"amount_local":"900.0000"');
      expect(tampered).not.toBe(webhook.rawBody);
      expect(verifyWebhook(header, tampered, secret, now)).toBe(false);
      expect(verifyWebhook(header, `${webhook.rawBody} `, secret, now)).toBe(false);
      expect(verifyWebhook(header, webhook.rawBody, `${secret}x`, now)).toBe(false);
      // Exactly at the 5-minute tolerance still verifies; one second later it is too old (a replay).
      expect(verifyWebhook(header, webhook.rawBody, secret, signedAt + FIVE_MINUTES)).toBe(true);
      expect(verifyWebhook(header, webhook.rawBody, secret, signedAt + FIVE_MINUTES + 1000)).toBe(false);
      expect(verifyWebhook(header, webhook.rawBody, secret, signedAt - FIVE_MINUTES - 1000)).toBe(false);
      // Moving the signature to another timestamp breaks it too.
      const shifted = header?.replace(/^t=(\d+)/, (_, t: string) => `t=${Number(t) + 1}`);
      expect(verifyWebhook(shifted, webhook.rawBody, secret, now)).toBe(false);
    });

    it('a failed topup is announced as transaction.failed with exactly the documented fields, once it is refunded', async () => {
      const { key, secret, receiver } = await partnerWithWebhook();
      const { orderId } = await topup(key, '0002');
      await service.settle();

      expect(receiver.received).toHaveLength(1);
      const [webhook] = receiver.received;
      const body = JSON.parse(webhook.rawBody);
      const status = await transaction(key, orderId);
      expect(status.status).toBe('FAILED');
      expect(body).toEqual({
        event_id: expect.any(String),
        event: 'transaction.failed',
        order_id: orderId,
        amount_local: status.amount_local,
        currency: 'INR',
        refunded_at: status.refunded_at,
      });
      expect(body.refunded_at).toMatch(ISO_DATE_TIME);
      expect(headerOf(webhook, 'x-partner-event-id')).toBe(body.event_id);
      expect(
        verifyWebhook(headerOf(webhook, 'x-partner-signature'), webhook.rawBody, secret, service.clock.now().getTime()),
      ).toBe(true);
    });

    it('bill payments are announced like topups, for success and for failure', async () => {
      const { partnerId, key, secret, receiver } = await partnerWithWebhook();
      const credited = await service.admin('POST', `/partners/${partnerId}/wallet-credits`, {
        environment: 'sandbox',
        amount: '2000.00',
        reference: 'extra test money',
      });
      expect(credited.status).toBe(200);
      const paid = await payBill(key, '1234560001', 500, 'bill-ok');
      const failed = await payBill(key, '1234560002', 1500, 'bill-fails');
      await service.settle();

      const bodies = receiver.received.map((webhook) => JSON.parse(webhook.rawBody));
      expect(bodies).toHaveLength(2);
      const succeeded = bodies.find((body) => body.order_id === paid);
      const refunded = bodies.find((body) => body.order_id === failed);
      expect(succeeded).toEqual({
        event_id: expect.any(String),
        event: 'transaction.succeeded',
        order_id: paid,
        operator_ref: expect.any(String),
        amount_local: '500.0000',
        currency: 'INR',
        reference: 'bill-ok',
        settled_at: expect.stringMatching(ISO_DATE_TIME),
      });
      expect(refunded).toEqual({
        event_id: expect.any(String),
        event: 'transaction.failed',
        order_id: failed,
        amount_local: '1500.0000',
        currency: 'INR',
        refunded_at: expect.stringMatching(ISO_DATE_TIME),
      });
      for (const webhook of receiver.received) {
        expect(
          verifyWebhook(
            headerOf(webhook, 'x-partner-signature'),
            webhook.rawBody,
            secret,
            service.clock.now().getTime(),
          ),
        ).toBe(true);
      }
    });

    it('an order that never settles (0005) is never announced, not even after it is held as stuck', async () => {
      const { key, receiver } = await partnerWithWebhook();
      await topup(key, '0005');
      await service.settle();
      await service.advance(60 * 60_000);
      expect(receiver.received).toHaveLength(0);
      expect(await deliveries(key)).toEqual([]);
    });

    it('a stuck order is announced when an operator resolves it: success as transaction.succeeded, failure as transaction.failed', async () => {
      const { key, receiver } = await partnerWithWebhook();
      const succeeds = await topup(key, '0005');
      const fails = await topup(key, '0005');
      await service.settle();
      await service.advance(60 * 60_000);
      expect(receiver.received).toHaveLength(0);

      expect(
        (
          await service.admin('POST', `/orders/${succeeds.orderId}/resolve`, {
            outcome: 'success',
            reason: 'operator confirmed delivery',
          })
        ).status,
      ).toBe(200);
      expect(
        (
          await service.admin('POST', `/orders/${fails.orderId}/resolve`, {
            outcome: 'failed',
            reason: 'operator confirmed failure',
          })
        ).status,
      ).toBe(200);
      await service.settle();
      const bodies = receiver.received.map((webhook) => JSON.parse(webhook.rawBody));
      expect(bodies).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            event: 'transaction.succeeded',
            order_id: succeeds.orderId,
            reference: succeeds.reference,
          }),
          expect.objectContaining({
            event: 'transaction.failed',
            order_id: fails.orderId,
            refunded_at: expect.stringMatching(ISO_DATE_TIME),
          }),
        ]),
      );
      expect(bodies).toHaveLength(2);
    });

    it('every event has its own id, and the same outcome keeps the same id when it is sent again', async () => {
      const { key, receiver } = await partnerWithWebhook();
      await topup(key, '0001');
      await topup(key, '0002');
      await service.settle();
      const ids = receiver.received.map((webhook) => JSON.parse(webhook.rawBody).event_id);
      expect(new Set(ids).size).toBe(2);
    });

    it('without a webhook URL nothing is sent and no delivery is recorded; the partner polls instead', async () => {
      const { sandboxKey } = await service.createPartner('IN', 'No Webhook Partner');
      await topup(sandboxKey, '0001');
      await service.settle();
      expect(await deliveries(sandboxKey)).toEqual([]);
    });

    it('settlement schedules no delivery work for a partner without a webhook URL, and does once the URL is set', async () => {
      const { partnerId, sandboxKey } = await service.createPartner('IN', 'Late Webhook Partner');
      const deliveryJobs = async (orderId: string): Promise<number> =>
        (
          await sqlOf(service).query<{ n: number }>(
            `SELECT count(*)::int AS n FROM jobs WHERE kind = 'deliver-webhook' AND payload->>'orderId' = $1`,
            [orderId],
          )
        )[0].n;
      const before = await topup(sandboxKey, '0001');
      await service.settle();
      expect(await deliveryJobs(before.orderId)).toBe(0);

      const receiver = await newReceiver();
      expect((await configure(partnerId, { environment: 'sandbox', webhook_url: receiver.url })).status).toBe(200);
      const after = await topup(sandboxKey, '0001');
      await service.settle();
      expect(await deliveryJobs(after.orderId)).toBe(1);
      expect(receiver.received.map((webhook) => JSON.parse(webhook.rawBody).order_id)).toEqual([after.orderId]);
    });
  });

  describe('delivery, retries and the delivery record', () => {
    it('a receiver that keeps failing is tried 4 times at exactly 5-minute gaps, then the delivery is FAILED, every attempt on record', async () => {
      const { key, receiver } = await partnerWithWebhook();
      receiver.answerWith(500);
      await topup(key, '0001');
      await service.settle();
      const start = service.clock.now().getTime();
      expect(receiver.received).toHaveLength(1);

      for (let retry = 1; retry <= 3; retry++) {
        await service.advance(FIVE_MINUTES - 1);
        expect(receiver.received).toHaveLength(retry); // not one millisecond early
        await service.advance(1);
        expect(receiver.received).toHaveLength(retry + 1);
        const [delivery] = await deliveries(key);
        expect(delivery.state).toBe(retry < 3 ? 'RETRYING' : 'FAILED');
      }
      await service.advance(ONE_DAY);
      expect(receiver.received).toHaveLength(4);

      const [delivery] = await deliveries(key);
      expect(delivery).toMatchObject({ state: 'FAILED', event: 'transaction.succeeded', url: receiver.url });
      expect(delivery.attempts).toHaveLength(4);
      delivery.attempts.forEach((attempt: Record<string, any>, index: number) => {
        expect(attempt).toEqual({
          attempt: index + 1,
          attempted_at: expect.any(String),
          url: receiver.url,
          status_code: 500,
          latency_ms: expect.any(Number),
          error: expect.any(String),
        });
        expect(new Date(attempt.attempted_at).getTime() - start).toBe(index * FIVE_MINUTES);
        expect(attempt.latency_ms).toBeGreaterThanOrEqual(0);
      });
      // The same event each time (same id and body), signed afresh at each attempt.
      expect(new Set(receiver.received.map((webhook) => webhook.rawBody)).size).toBe(1);
      expect(new Set(receiver.received.map((webhook) => headerOf(webhook, 'x-partner-event-id'))).size).toBe(1);
      expect(
        new Set(
          receiver.received.map((webhook) => parseSignatureHeader(headerOf(webhook, 'x-partner-signature'))?.timestamp),
        ).size,
      ).toBe(4);
    });

    it('a receiver that answers 503 and then comes back gets the event on a retry, and the delivery SUCCEEDS', async () => {
      const { key, secret, receiver } = await partnerWithWebhook();
      receiver.answerWith(503);
      await topup(key, '0001');
      await service.settle();
      await service.advance(FIVE_MINUTES);
      expect(receiver.received.map((webhook) => webhook.answered)).toEqual([503, 503]);

      receiver.answerWith(204);
      await service.advance(FIVE_MINUTES);
      expect(receiver.received.map((webhook) => webhook.answered)).toEqual([503, 503, 204]);
      const last = receiver.received[2];
      expect(
        verifyWebhook(headerOf(last, 'x-partner-signature'), last.rawBody, secret, service.clock.now().getTime()),
      ).toBe(true);

      await service.advance(FIVE_MINUTES);
      expect(receiver.received).toHaveLength(3);
      const [delivery] = await deliveries(key);
      expect(delivery.state).toBe('SUCCEEDED');
      expect(delivery.attempts.map((attempt: Record<string, any>) => [attempt.status_code, attempt.error])).toEqual([
        [503, expect.any(String)],
        [503, expect.any(String)],
        [204, null],
      ]);
    });

    it('a receiver that refuses connections and then comes back gets the event on a retry; the refusals are recorded as errors', async () => {
      const { key, receiver } = await partnerWithWebhook();
      await receiver.stop();
      await topup(key, '0001');
      await service.settle();
      let [delivery] = await deliveries(key);
      expect(delivery.state).toBe('RETRYING');
      expect(delivery.attempts).toEqual([
        {
          attempt: 1,
          attempted_at: expect.any(String),
          url: receiver.url,
          status_code: null,
          latency_ms: expect.any(Number),
          error: DELIVERY_ERRORS.connectionFailed,
        },
      ]);

      await receiver.restart();
      await service.advance(FIVE_MINUTES);
      expect(receiver.received).toHaveLength(1);
      [delivery] = await deliveries(key);
      expect(delivery.state).toBe('SUCCEEDED');
      expect(delivery.attempts.map((attempt: Record<string, any>) => attempt.status_code)).toEqual([null, 200]);
    });

    it('a retry after the partner removed its URL sends nothing, to the old URL or anywhere, and is recorded as failed', async () => {
      const { partnerId, key, receiver } = await partnerWithWebhook();
      receiver.answerWith(503);
      await topup(key, '0001');
      await service.settle();
      expect(receiver.received).toHaveLength(1);
      expect((await configure(partnerId, { environment: 'sandbox', webhook_url: null })).status).toBe(200);

      await service.advance(FIVE_MINUTES);
      expect(receiver.received).toHaveLength(1);
      const [delivery] = await deliveries(key);
      expect(
        delivery.attempts.map((attempt: Record<string, any>) => [
          attempt.attempt,
          attempt.url,
          attempt.status_code,
          attempt.error,
        ]),
      ).toEqual([
        [1, receiver.url, 503, expect.any(String)],
        [2, null, null, 'the partner removed the webhook URL'],
      ]);
    });

    it('a redirect is not followed and counts as a failed attempt', async () => {
      const { key, receiver } = await partnerWithWebhook();
      receiver.answerWith(302);
      await topup(key, '0001');
      await service.settle();
      const [delivery] = await deliveries(key);
      expect(delivery.state).toBe('RETRYING');
      expect(delivery.attempts[0]).toMatchObject({ status_code: 302, error: expect.any(String) });
    });

    it('a partner reads one delivery by id and cannot see another partner’s deliveries', async () => {
      const owner = await partnerWithWebhook();
      const other = await partnerWithWebhook();
      await topup(owner.key, '0001');
      await service.settle();
      const [delivery] = await deliveries(owner.key);
      const one = await service.partner('GET', `/webhook-deliveries/${delivery.delivery_id}`, owner.key);
      expect(one.status).toBe(200);
      expect(one.body).toMatchObject({
        delivery_id: delivery.delivery_id,
        event_id: delivery.event_id,
        state: 'SUCCEEDED',
      });
      expect(await deliveries(other.key)).toEqual([]);
      const foreign = await service.partner('GET', `/webhook-deliveries/${delivery.delivery_id}`, other.key);
      expect(foreign.status).toBe(404);
      expect(foreign.body).toEqual({ error: 'not_found', detail: expect.any(String) });
      const badFilter = await service.partner('GET', '/webhook-deliveries?state=LOST', owner.key);
      expect(badFilter.status).toBe(400);
    });

    it('the delivery record names the event id that the receiver saw', async () => {
      const { key, receiver } = await partnerWithWebhook();
      await topup(key, '0001');
      await service.settle();
      const [delivery] = await deliveries(key);
      expect(delivery.event_id).toBe(headerOf(receiver.received[0], 'x-partner-event-id'));
    });
  });

  describe('operator re-sends', () => {
    it('an operator re-sends a FAILED delivery through the admin API once the receiver is fixed: same event, fresh signature', async () => {
      const { partnerId, key, secret, receiver } = await partnerWithWebhook();
      receiver.answerWith(500);
      await topup(key, '0001');
      await service.settle();
      for (let retry = 0; retry < 3; retry++) await service.advance(FIVE_MINUTES);
      let [delivery] = await deliveries(key);
      expect(delivery.state).toBe('FAILED');

      const listed = await service.admin('GET', `/webhook-deliveries?partner_id=${partnerId}&state=FAILED`);
      expect(listed.status).toBe(200);
      expect(listed.body.deliveries.map((entry: Record<string, unknown>) => entry.delivery_id)).toEqual([
        delivery.delivery_id,
      ]);

      receiver.answerWith(200);
      const resent = await service.admin('POST', `/webhook-deliveries/${delivery.delivery_id}/resend`);
      expect(resent.status).toBe(202);
      expect(resent.body).toEqual({ delivery_id: delivery.delivery_id, scheduled_attempt: 5 });
      await service.settle();

      expect(receiver.received).toHaveLength(5);
      const last = receiver.received[4];
      expect(last.rawBody).toBe(receiver.received[0].rawBody);
      expect(headerOf(last, 'x-partner-event-id')).toBe(delivery.event_id);
      expect(
        verifyWebhook(headerOf(last, 'x-partner-signature'), last.rawBody, secret, service.clock.now().getTime()),
      ).toBe(true);
      [delivery] = await deliveries(key);
      expect(delivery.state).toBe('SUCCEEDED');
      expect(delivery.attempts.map((attempt: Record<string, any>) => attempt.status_code)).toEqual([
        500, 500, 500, 500, 200,
      ]);

      // A re-send is one attempt, not a new retry schedule.
      await service.advance(ONE_DAY);
      expect(receiver.received).toHaveLength(5);
    });

    it('each attempt records the URL it went to: a re-send after the partner moved the webhook shows the new address', async () => {
      const { partnerId, key, receiver } = await partnerWithWebhook();
      receiver.answerWith(503);
      await topup(key, '0001');
      await service.settle();
      const moved = await newReceiver();
      expect((await configure(partnerId, { environment: 'sandbox', webhook_url: moved.url })).status).toBe(200);
      let [delivery] = await deliveries(key);
      await service.admin('POST', `/webhook-deliveries/${delivery.delivery_id}/resend`);
      await service.settle();
      [delivery] = await deliveries(key);
      expect(delivery.state).toBe('SUCCEEDED');
      expect(delivery.url).toBe(receiver.url);
      expect(delivery.attempts.map((attempt: Record<string, unknown>) => [attempt.url, attempt.status_code])).toEqual([
        [receiver.url, 503],
        [moved.url, 200],
      ]);
      expect(moved.received).toHaveLength(1);
    });

    it('an operator re-send while retries are still scheduled does not cancel them', async () => {
      const { key, receiver } = await partnerWithWebhook();
      receiver.answerWith(500);
      await topup(key, '0001');
      await service.settle();
      const start = service.clock.now().getTime();
      let [delivery] = await deliveries(key);
      const resent = await service.admin('POST', `/webhook-deliveries/${delivery.delivery_id}/resend`);
      expect(resent.body.scheduled_attempt).toBe(2);
      await service.settle();
      [delivery] = await deliveries(key);
      expect(delivery.state).toBe('RETRYING');

      await service.advance(FIVE_MINUTES);
      await service.advance(FIVE_MINUTES);
      await service.advance(ONE_DAY);
      [delivery] = await deliveries(key);
      expect(delivery.state).toBe('FAILED');
      expect(
        delivery.attempts.map((attempt: Record<string, any>) => [
          attempt.attempt,
          new Date(attempt.attempted_at).getTime() - start,
        ]),
      ).toEqual([
        [1, 0],
        [2, 0],
        [3, FIVE_MINUTES],
        [4, 2 * FIVE_MINUTES],
      ]);
      expect(receiver.received).toHaveLength(4);
    });

    it('an operator lists deliveries and re-sends one from the CLI', async () => {
      const { partnerId, key, receiver } = await partnerWithWebhook();
      await topup(key, '0001');
      await service.settle();
      const [delivery] = await deliveries(key);
      const env = { SERVICE_URL: service.url, ADMIN_TOKEN: TEST_ADMIN_TOKEN };

      const list = await runCli(['webhook', 'list', '--partner', partnerId, '--environment', 'sandbox'], env);
      expect(list.code).toBe(0);
      const listed = JSON.parse(list.stdout);
      expect(listed.deliveries).toEqual([
        expect.objectContaining({
          delivery_id: delivery.delivery_id,
          state: 'SUCCEEDED',
          attempts: [expect.objectContaining({ status_code: 200 })],
        }),
      ]);

      const resend = await runCli(['webhook', 'resend', delivery.delivery_id], env);
      expect(resend.code).toBe(0);
      expect(JSON.parse(resend.stdout)).toEqual({ delivery_id: delivery.delivery_id, scheduled_attempt: 2 });
      await service.settle();
      expect(receiver.received).toHaveLength(2);
      expect(receiver.received[1].rawBody).toBe(receiver.received[0].rawBody);

      const missing = await runCli(['webhook', 'resend', 'no-such-delivery'], env);
      expect(missing.code).not.toBe(0);
    });

    it('re-sending an unknown delivery is 404 not_found', async () => {
      const answer = await service.admin('POST', '/webhook-deliveries/whd-does-not-exist/resend');
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual({ error: 'not_found', detail: expect.any(String) });
    });
  });

  describe('webhook secret rotation', () => {
    it('after a rotation both secrets sign for 24 hours (two v1 entries, newest first), then only the new one', async () => {
      const { partnerId, key, secret: oldSecret, receiver } = await partnerWithWebhook();
      const rotated = await configure(partnerId, { environment: 'sandbox', rotate_webhook_secret: true });
      expect(rotated.status).toBe(200);
      const newSecret: string = rotated.body.webhook_secret;
      expect(newSecret).toEqual(expect.any(String));
      expect(newSecret).not.toBe(oldSecret);
      const rotatedAt = service.clock.now().getTime();
      expect(new Date(rotated.body.previous_webhook_secret_valid_until).getTime()).toBe(rotatedAt + ONE_DAY);

      await topup(key, '0001');
      await service.settle();
      const during = receiver.received[0];
      const header = headerOf(during, 'x-partner-signature');
      expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
      expect(entriesVerifiedBy(header, during.rawBody, newSecret)).toEqual([0]);
      expect(entriesVerifiedBy(header, during.rawBody, oldSecret)).toEqual([1]);
      // A receiver holding either secret accepts the event.
      expect(verifyWebhook(header, during.rawBody, newSecret, service.clock.now().getTime())).toBe(true);
      expect(verifyWebhook(header, during.rawBody, oldSecret, service.clock.now().getTime())).toBe(true);

      await service.advance(rotatedAt + ONE_DAY - service.clock.now().getTime());
      await topup(key, '0001');
      await service.settle();
      const after = receiver.received[1];
      const afterHeader = headerOf(after, 'x-partner-signature');
      expect(afterHeader).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
      expect(verifyWebhook(afterHeader, after.rawBody, newSecret, service.clock.now().getTime())).toBe(true);
      expect(verifyWebhook(afterHeader, after.rawBody, oldSecret, service.clock.now().getTime())).toBe(false);
      expect((await service.partner('GET', '/settings', key)).body.previous_webhook_secret_valid_until).toBeNull();
    });

    it('a partner rotates its own secret through the settings API and sees it once', async () => {
      const { key, secret: oldSecret, receiver } = await partnerWithWebhook();
      const rotated = await service.partner('POST', '/settings/webhook-secret/rotate', key);
      expect(rotated.status).toBe(200);
      expect(rotated.body.webhook_secret).toEqual(expect.any(String));
      const shown = await service.partner('GET', '/settings', key);
      expect(shown.body).not.toHaveProperty('webhook_secret');
      expect(JSON.stringify(shown.body)).not.toContain(rotated.body.webhook_secret);
      expect(JSON.stringify(shown.body)).not.toContain(oldSecret);

      await topup(key, '0001');
      await service.settle();
      const header = headerOf(receiver.received[0], 'x-partner-signature');
      expect(entriesVerifiedBy(header, receiver.received[0].rawBody, rotated.body.webhook_secret)).toEqual([0]);
      expect(entriesVerifiedBy(header, receiver.received[0].rawBody, oldSecret)).toEqual([1]);
    });

    it('a second rotation within 24 hours keeps only the two newest secrets signing', async () => {
      const { partnerId, key, secret: first, receiver } = await partnerWithWebhook();
      const second = (await configure(partnerId, { environment: 'sandbox', rotate_webhook_secret: true })).body
        .webhook_secret;
      const third = (await configure(partnerId, { environment: 'sandbox', rotate_webhook_secret: true })).body
        .webhook_secret;
      await topup(key, '0001');
      await service.settle();
      const [webhook] = receiver.received;
      const header = headerOf(webhook, 'x-partner-signature');
      expect(parseSignatureHeader(header)?.signatures).toHaveLength(2);
      expect(entriesVerifiedBy(header, webhook.rawBody, third)).toEqual([0]);
      expect(entriesVerifiedBy(header, webhook.rawBody, second)).toEqual([1]);
      expect(entriesVerifiedBy(header, webhook.rawBody, first)).toEqual([]);
    });
  });

  describe('settings', () => {
    it('every settings change is recorded in the event log with the actor who made it', async () => {
      const { partnerId, sandboxKey } = await service.createPartner('IN', 'Audited Partner');
      const receiver = await newReceiver();
      const asOwner = async (body: Record<string, unknown>) =>
        service.request('PATCH', `/v1/admin/partners/${partnerId}/settings`, {
          token: await service.operatorToken('owner.bob', 'owner'),
          body,
        });
      expect((await configure(partnerId, { environment: 'sandbox', rate_limit: 120 }, 'ops.alice')).status).toBe(200);
      // The first URL comes with the signing secret, and a rotation shows one: an owner's, not an operator's.
      for (const body of [{ webhook_url: receiver.url }, { rotate_webhook_secret: true }]) {
        const refused = await configure(partnerId, { environment: 'sandbox', ...body }, 'ops.alice');
        expect({ status: refused.status, error: refused.body.error }).toEqual({ status: 403, error: 'role_forbidden' });
      }
      expect((await asOwner({ environment: 'sandbox', webhook_url: receiver.url })).status).toBe(200);
      expect((await asOwner({ environment: 'sandbox', rotate_webhook_secret: true })).status).toBe(200);
      expect((await service.partner('PATCH', '/settings', sandboxKey, { ip_allowlist: ['127.0.0.1'] })).status).toBe(
        200,
      );

      const events = await sqlOf(service).query<{
        event_type: string;
        data: Record<string, any>;
        metadata: Record<string, any>;
      }>(
        `SELECT event_type, data, metadata FROM es_events
          WHERE stream_id = $1 AND event_type IN ('PartnerSettingsChanged', 'WebhookSecretRotated') ORDER BY global_position`,
        [`partner-${partnerId}`],
      );
      expect(events.map((event) => [event.event_type, event.metadata.actor])).toEqual([
        ['PartnerSettingsChanged', { type: 'operator', id: 'ops.alice' }],
        ['PartnerSettingsChanged', { type: 'operator', id: 'owner.bob' }],
        ['WebhookSecretRotated', { type: 'operator', id: 'owner.bob' }],
        ['WebhookSecretRotated', { type: 'operator', id: 'owner.bob' }],
        ['PartnerSettingsChanged', { type: 'partner_key', id: expect.any(String) }],
      ]);
      expect(events[0].data.changes).toEqual({ rateLimitPerMinute: 120, rateLimitCeilingPerMinute: 120 });
      expect(events[1].data.changes).toEqual({ webhookUrl: receiver.url });
      expect(events[4].data.changes).toEqual({ ipAllowlist: ['127.0.0.1/32'] });
      for (const event of events) expect(event.metadata.occurredAt).toEqual(expect.any(String));
      // The secret itself is never in the log in clear.
      const rotated = await configure(partnerId, { environment: 'sandbox', rotate_webhook_secret: true });
      const log = await sqlOf(service).query<{ text: string }>(
        `SELECT data::text AS text FROM es_events WHERE stream_id = $1`,
        [`partner-${partnerId}`],
      );
      expect(log.some((row) => row.text.includes(rotated.body.webhook_secret))).toBe(false);
    });

    it('a partner reads and changes its own settings without ever seeing the secret again', async () => {
      const { sandboxKey } = await service.createPartner('IN', 'Self Service Partner');
      const receiver = await newReceiver();
      const changed = await service.partner('PATCH', '/settings', sandboxKey, {
        webhook_url: receiver.url,
        rate_limit_per_minute: 100,
      });
      expect(changed.status).toBe(200);
      expect(changed.body).toMatchObject({
        environment: 'sandbox',
        webhook_url: receiver.url,
        webhook_secret_set: true,
        rate_limit_per_minute: 100,
      });
      expect(changed.body.webhook_secret).toEqual(expect.any(String));
      const again = await service.partner('PATCH', '/settings', sandboxKey, { webhook_url: `${receiver.url}?v=2` });
      expect(again.status).toBe(200);
      expect(again.body).not.toHaveProperty('webhook_secret');
      const shown = await service.partner('GET', '/settings', sandboxKey);
      expect(shown.body).toEqual({
        partner_id: expect.any(String),
        environment: 'sandbox',
        webhook_url: `${receiver.url}?v=2`,
        webhook_secret_set: true,
        previous_webhook_secret_valid_until: null,
        ip_allowlist: [],
        rate_limit_per_minute: 100,
        rate_limit_ceiling_per_minute: 120,
        low_balance_threshold: null,
      });
    });

    it('a live webhook URL must use https; http is refused with 400 while sandbox accepts it', async () => {
      const { partnerId } = await service.createPartner('IN', 'Live URL Partner');
      const refused = await configure(partnerId, {
        environment: 'live',
        webhook_url: 'http://hooks.example.com/recharge',
      });
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({ error: 'validation_failed', detail: expect.stringMatching(/https/) });
      const accepted = await configure(partnerId, {
        environment: 'live',
        webhook_url: 'https://hooks.example.com/recharge',
      });
      expect(accepted.status).toBe(200);
      expect(accepted.body.webhook_secret).toEqual(expect.any(String));
      expect(
        (await configure(partnerId, { environment: 'sandbox', webhook_url: 'http://localhost:8080/hooks' })).status,
      ).toBe(200);
      for (const url of ['ftp://hooks.example.com/', 'not a url', 'https://user:pass@hooks.example.com/']) {
        expect((await configure(partnerId, { environment: 'sandbox', webhook_url: url })).status).toBe(400);
      }
    });

    it('a webhook URL whose host is a metadata endpoint is refused even in a private deployment', async () => {
      const { partnerId } = await service.createPartner('IN', 'Metadata URL Partner');
      for (const url of [
        'http://169.254.169.254/latest/meta-data',
        'http://[fd00:ec2::254]/',
        'http://metadata.google.internal/computeMetadata/v1/',
      ]) {
        const refused = await configure(partnerId, { environment: 'sandbox', webhook_url: url });
        expect({ url, status: refused.status, error: refused.body.error }).toEqual({
          url,
          status: 400,
          error: 'validation_failed',
        });
      }
    });
  });
});
