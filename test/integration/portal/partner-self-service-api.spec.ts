import { randomUUID } from 'node:crypto';
import { expectRefusal } from '../../support/error-assertions';
import { EventStreamClient } from '../../support/event-stream-client';
import { RecordingReceiver } from '../../support/recording-receiver';
import { waitFor } from '../../support/wait-for';
import { SANDBOX_PHONES, TestService } from '../../support/test-service';
import { SERVICE_START_TIMEOUT_MS } from '../../support/timeouts';

/*
 * What the partner portal's self-service stands on in the partner API: a partner re-sends its own
 * webhook deliveries (main key only), and reads its latest events, by page or as the start of a
 * stream, without reading the feed from its first event.
 */
describe('partner self-service in the API: webhook re-sends and the latest events', () => {
  let service: TestService;
  let receiver: RecordingReceiver;
  const streams: EventStreamClient[] = [];

  beforeAll(async () => {
    service = await TestService.start({ store: 'postgres', env: { WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true' } });
    receiver = await RecordingReceiver.start();
  }, SERVICE_START_TIMEOUT_MS);
  afterAll(async () => {
    for (const stream of streams) await stream.close();
    await receiver?.stop();
    await service?.close();
  });

  const hookedPartner = async (url: string) => {
    const partner = await service.createPartner('IN', 'Self-service Partner');
    const configured = await service.admin('PATCH', `/partners/${partner.partnerId}/settings`, {
      environment: 'sandbox',
      webhook_url: url,
    });
    expect(configured.status).toBe(200);
    return partner;
  };
  const topup = async (key: string, suffix: string): Promise<string> => {
    const placed = await service.topup(
      key,
      { operator_id: 101, phone: SANDBOX_PHONES.IN(suffix), amount: 10 },
      `self-${randomUUID()}`,
    );
    expect(placed.status).toBe(200);
    return placed.body.order_id;
  };
  const deliveryOf = async (key: string, orderId: string) => {
    const list = await service.partner('GET', '/webhook-deliveries', key);
    return list.body.deliveries.find((delivery: { order_id: string }) => delivery.order_id === orderId);
  };

  it("re-sends the partner's own delivery once more, now, to the current URL; asking twice before it runs sends once", async () => {
    const { sandboxKey } = await hookedPartner('http://127.0.0.1:9/closed');
    const orderId = await topup(sandboxKey, '0001');
    await service.settle();
    const delivery = await deliveryOf(sandboxKey, orderId);
    expect(delivery).toMatchObject({ state: 'RETRYING', attempts: [{ attempt: 1 }] });

    // The partner fixes its endpoint, then asks for the delivery again (twice, quickly).
    expect((await service.partner('PATCH', '/settings', sandboxKey, { webhook_url: receiver.url })).status).toBe(200);
    const before = receiver.received.length;
    const resend = await service.partner('POST', `/webhook-deliveries/${delivery.delivery_id}/resend`, sandboxKey);
    expect(resend.status).toBe(202);
    expect(resend.body).toEqual({ delivery_id: delivery.delivery_id, scheduled_attempt: 2 });
    const again = await service.partner('POST', `/webhook-deliveries/${delivery.delivery_id}/resend`, sandboxKey);
    expect(again.body).toEqual({ delivery_id: delivery.delivery_id, scheduled_attempt: 2 });
    await service.settle();
    await receiver.receivedCount(before + 1);
    const resent = receiver.received[before];
    expect(resent.headers['x-partner-event-id']).toBe(delivery.delivery_id);
    expect(JSON.parse(resent.rawBody)).toMatchObject({ event: 'transaction.succeeded', order_id: orderId });
    expect(await deliveryOf(sandboxKey, orderId)).toMatchObject({
      state: 'SUCCEEDED',
      attempts: [{ attempt: 1 }, { attempt: 2, status_code: 200, url: receiver.url }],
    });
    expect(receiver.received.length).toBe(before + 1);
  });

  it("refuses another partner's delivery (404), an unknown one (404), and a restricted key (403), and sends nothing", async () => {
    const owner = await hookedPartner('http://127.0.0.1:9/closed');
    const orderId = await topup(owner.sandboxKey, '0001');
    await service.settle();
    const delivery = await deliveryOf(owner.sandboxKey, orderId);
    const stranger = await service.createPartner('IN', 'Stranger');
    expectRefusal(
      await service.partner('POST', `/webhook-deliveries/${delivery.delivery_id}/resend`, stranger.sandboxKey),
      404,
      'not_found',
    );
    expectRefusal(
      await service.partner('POST', '/webhook-deliveries/no-such-delivery/resend', owner.sandboxKey),
      404,
      'not_found',
    );
    const restricted = await service.partner('POST', '/keys', owner.sandboxKey, {
      label: 'reader',
      scope: 'read_only',
    });
    expect(restricted.status).toBe(201);
    expectRefusal(
      await service.partner('POST', `/webhook-deliveries/${delivery.delivery_id}/resend`, restricted.body.api_key),
      403,
      'scope_forbidden',
    );
    await service.settle();
    expect((await deliveryOf(owner.sandboxKey, orderId)).attempts).toHaveLength(1);
  });

  it('lists the latest events, oldest first, with the cursor to follow from; a stream can start there too', async () => {
    const { sandboxKey } = await service.createPartner('IN', 'Latest Events Partner');
    for (const suffix of ['0001', '0002', '0001']) await topup(sandboxKey, suffix);
    await service.settle();
    const all = (await service.partner('GET', '/events', sandboxKey)).body;
    expect(all.events).toHaveLength(3);
    const newest: string = all.events[2].order_id;

    const latest = await service.partner('GET', '/events?last=2', sandboxKey);
    expect(latest.status).toBe(200);
    expect(latest.body).toEqual({
      count: 2,
      events: all.events.slice(1),
      next_cursor: all.next_cursor,
      has_more: false,
    });
    expect((await service.partner('GET', '/events?last=500', sandboxKey)).body.events).toEqual(all.events);
    const empty = await service.createPartner('IN', 'Quiet Partner');
    expect((await service.partner('GET', '/events?last=5', empty.sandboxKey)).body).toEqual({
      count: 0,
      events: [],
      next_cursor: null,
      has_more: false,
    });
    for (const query of ['?last=0', '?last=501', '?last=2&limit=2', `?last=2&after=${all.next_cursor}`, '?last=x'])
      expectRefusal(await service.partner('GET', `/events${query}`, sandboxKey), 400, 'validation_failed');

    const stream = await EventStreamClient.open(`${service.url}/v1/partner/events/stream?last=1`, {
      authorization: `Bearer ${sandboxKey}`,
    });
    streams.push(stream);
    expect(stream.status).toBe(200);
    await waitFor(() => stream.events.length >= 1);
    expect(stream.events.map((event) => JSON.parse(event.data).order_id)).toEqual([newest]);
    const next = await topup(sandboxKey, '0001');
    await service.settle();
    await waitFor(() => stream.events.length >= 2, 10_000);
    expect(stream.events.map((event) => JSON.parse(event.data).order_id)).toEqual([newest, next]);
    await stream.close();

    // Reconnecting with Last-Event-ID resumes after it, whatever `last` says.
    const resumed = await EventStreamClient.open(`${service.url}/v1/partner/events/stream?last=3`, {
      authorization: `Bearer ${sandboxKey}`,
      'last-event-id': stream.events[0].id ?? '',
    });
    streams.push(resumed);
    await waitFor(() => resumed.events.length >= 1);
    expect(resumed.events.map((event) => JSON.parse(event.data).order_id)).toEqual([next]);
    expectRefusal(
      await service.partner('GET', `/events/stream?last=2&after=${all.next_cursor}`, sandboxKey),
      400,
      'validation_failed',
    );
  });
});
