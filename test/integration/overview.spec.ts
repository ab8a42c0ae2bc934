import { randomUUID } from 'node:crypto';
import { SANDBOX_PHONES, TEST_ADMIN_TOKEN, TestService } from '../support/test-service';

/*
 * The console's overview: today's and the week's orders by corridor currency and environment and
 * outcome, success rates by operator and provider, settlement time, held orders, drawn from the
 * daily counters (a bounded read) and a chart drawn by the service.
 */
describe('operations overview', () => {
  let service: TestService;

  beforeAll(async () => {
    service = await TestService.start({ store: 'postgres' });
  });
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
    expect(overview.provider_breakers).toHaveProperty('providers');

    const chart = await service.request('GET', '/v1/admin/overview/orders-by-day.svg', { token: TEST_ADMIN_TOKEN });
    expect(chart.status).toBe(200);
    expect(chart.headers.get('content-type')).toContain('image/svg+xml');
    expect(chart.text).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(chart.text).toContain('placed: 4');
    expect(chart.text).not.toMatch(/<script|href=/i);
  });
});
