import { eventually } from '../../support/drill-load';
import { HangingReceiver } from '../../support/hanging-receiver';
import { SANDBOX_PHONES, TestService } from '../../support/test-service';
import { SERVICE_START_TIMEOUT_MS } from '../../support/timeouts';

/*
 * Failure drill: the partner's webhook receiver hangs (accepts the connection, never answers).
 * The service runs its background loops by itself (as in production) and posts to a real socket;
 * only the 5-minute retry gap is crossed with the manual clock. While deliveries hang, other
 * orders keep settling; each hung attempt ends at WEBHOOK_TIMEOUT_MS and is retried; once the
 * receiver answers again, every delivery succeeds, and verify passes.
 */
jest.setTimeout(SERVICE_START_TIMEOUT_MS);

const WEBHOOK_TIMEOUT_MS = 8_000;
const FIRST = 3;
const MORE = 10;

describe('failure drill: the webhook receiver hangs', () => {
  let service: TestService;
  let receiver: HangingReceiver;

  beforeAll(async () => {
    receiver = await HangingReceiver.start();
    service = await TestService.start({
      store: 'postgres',
      runInBackground: true,
      // The private-deployment opt-in: this receiver listens on loopback.
      env: {
        WEBHOOK_TIMEOUT_MS: String(WEBHOOK_TIMEOUT_MS),
        WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true',
        JOB_POLL_MS: '50',
      },
    });
  }, SERVICE_START_TIMEOUT_MS);
  afterAll(async () => {
    await service?.close();
    await receiver?.close();
  });

  it('times hung deliveries out, retries them, blocks nothing else, and delivers once the receiver answers', async () => {
    const { partnerId, sandboxKey } = await service.createPartner('IN', 'Hanging Receiver');
    const configured = await service.admin('PATCH', `/partners/${partnerId}/settings`, {
      environment: 'sandbox',
      webhook_url: receiver.url,
      rate_limit: 100_000,
    });
    expect(configured.status).toBe(200);
    const place = async (i: number): Promise<string> => {
      const answer = await service.topup(
        sandboxKey,
        { operator_id: 101, phone: SANDBOX_PHONES.IN('0001'), amount: 10 },
        `drill-hang-${String(i).padStart(4, '0')}`,
      );
      expect(answer.status).toBe(200);
      return answer.body.order_id;
    };
    const statusOf = async (orderId: string): Promise<string> =>
      (await service.partner('GET', `/transactions/${orderId}`, sandboxKey)).body.status;

    const first: string[] = [];
    for (let i = 0; i < FIRST; i++) first.push(await place(i));
    await eventually('the first deliveries hang', async () => (receiver.heldConnections >= FIRST ? true : undefined));

    const deliveries = async (): Promise<
      { order_id: string; state: string; attempts: { status_code: number | null; error: string | null }[] }[]
    > => (await service.admin('GET', `/webhook-deliveries?partner_id=${partnerId}&limit=100`)).body.deliveries;

    // With those connections held open, later orders still settle: all of them before the first
    // hung attempt has even timed out.
    const later: string[] = [];
    for (let i = FIRST; i < FIRST + MORE; i++) later.push(await place(i));
    await eventually('every order settled', async () =>
      (await Promise.all([...first, ...later].map(statusOf))).every((status) => status === 'SUCCESS')
        ? true
        : undefined,
    );
    expect((await deliveries()).filter((delivery) => delivery.attempts.length > 0)).toEqual([]);
    const timedOut = await eventually('every first attempt timed out', async () => {
      const listed = await deliveries();
      return listed.length === FIRST + MORE && listed.every((delivery) => delivery.state === 'RETRYING')
        ? listed
        : undefined;
    });
    for (const delivery of timedOut)
      expect(delivery.attempts).toEqual([expect.objectContaining({ status_code: null, error: expect.any(String) })]);
    expect(receiver.heldConnections).toBe(0);

    // The next attempt is due 5 minutes later on the service clock; it hangs and times out as well.
    service.clock.advance(5 * 60_000 + 1_000);
    await eventually('second attempts timed out', async () => {
      const listed = await deliveries();
      return listed.every((delivery) => delivery.attempts.length === 2) ? true : undefined;
    });

    receiver.recover();
    service.clock.advance(5 * 60_000 + 1_000);
    const delivered = await eventually('every delivery succeeded', async () => {
      const listed = await deliveries();
      return listed.every((delivery) => delivery.state === 'SUCCEEDED') ? listed : undefined;
    });
    expect(delivered.map((delivery) => delivery.attempts.length)).toEqual(Array(FIRST + MORE).fill(3));
    expect(new Set(delivered.map((delivery) => delivery.order_id))).toEqual(new Set([...first, ...later]));
    expect((await service.verify()).body).toMatchObject({ ok: true, breaches: [], in_progress: [] });
  });
});
