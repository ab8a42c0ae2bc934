import { randomUUID } from 'node:crypto';
import { LiveUpstream, startLiveUpstream } from '../../support/live-provider';
import { ManualClock } from '../../support/manual-clock';
import { RecordingReceiver } from '../../support/recording-receiver';
import { runCli } from '../../support/run-cli';
import { SANDBOX_PHONES, TEST_ADMIN_TOKEN, TestService } from '../../support/test-service';
import { SERVICE_START_TIMEOUT_MS } from '../../support/timeouts';

const RETRY_GAP_MS = 5 * 60_000;

/** Noon of the real day: the retries' quarter of an hour stays within "today" whenever the suite runs. */
const NOON_TODAY = new Date(`${new Date().toISOString().slice(0, 10)}T12:00:00.000Z`);

/*
 * The console's overview: today's and the week's orders by corridor currency and environment and
 * outcome, success rates by operator and provider, settlement time, held orders, drawn from the
 * daily counters (a bounded read) and a chart drawn by the service.
 */
describe('operations overview', () => {
  let service: TestService;

  beforeAll(async () => {
    service = await TestService.start({
      store: 'postgres',
      clock: new ManualClock(NOON_TODAY),
      env: { WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true' },
    });
  }, SERVICE_START_TIMEOUT_MS);
  afterAll(async () => {
    await service?.close();
  });

  it('counts today’s orders by outcome, rates operators and providers, and draws the week', async () => {
    const { sandboxKey } = await service.createPartner('IN', 'Overview Partner');
    const place = (suffix: string) =>
      service.topup(
        sandboxKey,
        { operator_id: 101, phone: SANDBOX_PHONES.IN(suffix), amount: 50 },
        `ov-${randomUUID()}`,
      );
    const answers = await Promise.all([place('0001'), place('0001'), place('0001'), place('0002')]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
    await service.settle();

    const refused = await service.request('GET', '/v1/admin/overview', { token: 'not-the-token' });
    expect(refused.status).toBe(401);
    const answer = await service.admin('GET', '/overview');
    expect(answer.status).toBe(200);
    const overview = answer.body;
    expect(overview.days).toHaveLength(7);
    expect(overview.periods.today['INR sandbox']).toMatchObject({
      placed: { orders: 4, amounts: { INR: '200.0000' } },
      succeeded: { orders: 3, amounts: { INR: '150.0000' } },
      failed: { orders: 1 },
      refunded: { orders: 1, amounts: { INR: '50.0000' } },
    });
    expect(overview.success_rate_by_provider).toContainEqual({
      name: 'sandbox',
      succeeded: 3,
      failed: 1,
      success_rate: 0.75,
    });
    expect(overview.success_rate_by_operator).toContainEqual(expect.objectContaining({ name: 'operator 101' }));
    expect(overview.settlement_ms.settled).toBe(3);
    expect(overview.settlement_ms.p50).toEqual(expect.any(Number));
    expect(overview.held_now).toBe(0);
    expect(overview.rows_read).toBeLessThanOrEqual(10);
    expect(overview.by_day[6]).toMatchObject({ placed: 4, succeeded: 3, failed: 1 });
    expect(overview.providers).toEqual([]); // sandbox only: no live provider
    expect(overview.breaker_policy).toEqual({ threshold: 5, cool_down_seconds: 30 });
    expect(overview.projection_lag_seconds).toBe(0);
    expect(overview.projections.map((projection: { name: string }) => projection.name)).toContain('read-models');

    // The same answer from the operator CLI.
    const cli = await runCli(['service', 'overview'], { SERVICE_URL: service.url, ADMIN_TOKEN: TEST_ADMIN_TOKEN });
    expect({ code: cli.code, stderr: cli.stderr }).toEqual({ code: 0, stderr: '' });
    expect(JSON.parse(cli.stdout)).toMatchObject({ today: overview.today, periods: overview.periods });

    const chart = await service.request('GET', '/v1/admin/overview/orders-by-day.svg', { token: TEST_ADMIN_TOKEN });
    expect(chart.status).toBe(200);
    expect(chart.headers.get('content-type')).toContain('image/svg+xml');
    expect(chart.text).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(chart.text).toContain('placed: 4');
    expect(chart.text).not.toMatch(/<script|href=/i);
  });

  it('counts webhook attempts of today by result: delivered, retrying, and failed once the retries are spent', async () => {
    const receiver = await RecordingReceiver.start();
    try {
      const delivered = await service.createPartner('IN', 'Overview Hooked Partner');
      const refused = await service.createPartner('IN', 'Overview Unreachable Partner');
      for (const [partner, url] of [
        [delivered, receiver.url],
        [refused, 'http://127.0.0.1:9/closed'],
      ] as const) {
        const answer = await service.admin('PATCH', `/partners/${partner.partnerId}/settings`, {
          environment: 'sandbox',
          webhook_url: url,
        });
        expect(answer.status).toBe(200);
      }
      const before = (await service.admin('GET', '/overview')).body.webhooks.today;
      for (const partner of [delivered, refused]) {
        const placed = await service.topup(
          partner.sandboxKey,
          { operator_id: 101, phone: SANDBOX_PHONES.IN('0001'), amount: 20 },
          `ov-hook-${randomUUID()}`,
        );
        expect(placed.status).toBe(200);
      }
      await service.settle();
      await receiver.receivedCount(1);
      const first = (await service.admin('GET', '/overview')).body.webhooks.today;
      expect(first).toMatchObject({
        attempts: before.attempts + 2,
        delivered: before.delivered + 1,
        retrying: before.retrying + 1,
        failed: before.failed,
      });
      // Three more attempts five minutes apart: two more retrying, then the last one fails the delivery.
      for (let retry = 0; retry < 3; retry++) await service.advance(RETRY_GAP_MS);
      const overview = (await service.admin('GET', '/overview')).body;
      expect(overview.webhooks.today).toMatchObject({
        attempts: before.attempts + 5,
        delivered: before.delivered + 1,
        retrying: before.retrying + 3,
        failed: before.failed + 1,
      });
      const { attempts, retrying, failed } = overview.webhooks.today;
      expect(overview.webhooks.today.failure_rate).toBe(Math.round(((retrying + failed) / attempts) * 10_000) / 10_000);
      expect(overview.webhooks.by_day[6]).toMatchObject({ day: overview.today, attempts });
      expect(overview.webhooks.last_7_days.attempts).toBe(attempts);
      // A week of counters: at most 7 days x 2 environments x 3 results x 8 rows, plus the order counters and one event per projector.
      expect(overview.rows_read).toBeLessThan(400);

      const chart = await service.request('GET', '/v1/admin/overview/webhooks-by-day.svg', { token: TEST_ADMIN_TOKEN });
      expect(chart.status).toBe(200);
      expect(chart.headers.get('content-type')).toContain('image/svg+xml');
      expect(chart.text).toContain(`${overview.today} refused, failed: ${failed}`);
      expect(chart.text).not.toMatch(/<script|href=/i);
    } finally {
      await receiver.stop();
    }
  });
});

describe('operations overview with a live provider: its float against the threshold, and its breaker', () => {
  let upstream: LiveUpstream;
  let service: TestService;

  beforeAll(async () => {
    upstream = await startLiveUpstream(
      { balance: '420.50', currency: 'USD' },
      { RELOADLY_LOW_FLOAT_THRESHOLD: '500.00' },
    );
    service = await TestService.start({ store: 'postgres', env: upstream.env });
  }, SERVICE_START_TIMEOUT_MS);
  afterAll(async () => {
    await service?.close();
    await upstream?.close();
  });

  it('lists every live provider with its float, its threshold, whether it is low, and its breaker', async () => {
    const overview = (await service.admin('GET', '/overview')).body;
    expect(overview.providers).toEqual([
      {
        provider: 'reloadly',
        float: {
          balance: '420.5',
          currency: 'USD',
          low_float_threshold: '500.00',
          low: true,
          read_at: expect.any(String),
        },
        float_error: null,
        balance_endpoint: true,
        breaker: { state: 'closed', unknown_in_a_row: 0, next_probe_at: null },
      },
    ]);
  });
});
