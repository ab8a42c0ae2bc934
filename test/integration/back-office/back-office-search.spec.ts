import { expectRefusal } from '../../support/error-assertions';
import { SANDBOX_PHONES, TestService } from '../../support/test-service';
import { SERVICE_START_TIMEOUT_MS } from '../../support/timeouts';

const BESCOM = 1005;

describe('the back office lists and searches (partners, orders, settings, job backlog)', () => {
  let service: TestService;
  let indian: { partnerId: string; sandboxKey: string };
  let singapore: { partnerId: string; sandboxKey: string };
  const orderIds: Record<string, string> = {};

  beforeAll(async () => {
    service = await TestService.start({ store: 'postgres' });
    indian = await service.createPartner('IN', 'Acme Recharge India');
    service.clock.advance(1_000);
    singapore = await service.createPartner('SG', 'Lion_Pay 100%');
    const placed = await service.topup(
      indian.sandboxKey,
      { operator_id: 101, phone: SANDBOX_PHONES.IN('0001'), amount: 10, reference: 'inv-1' },
      'search-1',
    );
    orderIds.topupIn = placed.body.order_id;
    const other = await service.topup(
      indian.sandboxKey,
      { operator_id: 101, phone: SANDBOX_PHONES.IN('0002'), amount: 20, reference: 'inv-2' },
      'search-2',
    );
    orderIds.failedIn = other.body.order_id;
    const fetched = await service.partner('POST', '/bill-info', indian.sandboxKey, {
      biller_id: BESCOM,
      consumer_number: '1234560001',
    });
    const bill = await service.partner(
      'POST',
      '/pay-bill',
      indian.sandboxKey,
      { biller_id: BESCOM, consumer_number: '1234560001', amount: Number(fetched.body.amount) },
      { 'idempotency-key': 'search-3' },
    );
    expect(bill.status).toBe(200);
    orderIds.billIn = bill.body.order_id;
    await service.settle();
  }, SERVICE_START_TIMEOUT_MS);
  afterAll(async () => {
    await service.close();
  });

  const ids = (answer: { body: { orders: { order_id: string }[] } }) =>
    answer.body.orders.map((order) => order.order_id).sort();

  it('lists partners newest first, and finds them by part of the name or id (taken literally), corridor and KYC status', async () => {
    const all = await service.admin('GET', '/partners');
    expect(all.status).toBe(200);
    expect(all.body.partners.map((p: { partner_id: string }) => p.partner_id)).toEqual([
      singapore.partnerId,
      indian.partnerId,
    ]);
    expect(all.body.partners[1]).toEqual({
      partner_id: indian.partnerId,
      name: 'Acme Recharge India',
      corridor: 'IN',
      kyc_status: 'pending',
      created_at: expect.any(String),
    });

    expect((await service.admin('GET', '/partners?q=acme')).body.partners).toHaveLength(1);
    expect((await service.admin('GET', `/partners?q=${indian.partnerId.slice(-10)}`)).body.partners[0].partner_id).toBe(
      indian.partnerId,
    );
    expect((await service.admin('GET', '/partners?q=100%25')).body.partners[0].partner_id).toBe(singapore.partnerId);
    expect((await service.admin('GET', '/partners?q=e_R')).body.count).toBe(0); // a literal underscore, not "any character" (which "Acme Recharge" would match)
    expect((await service.admin('GET', '/partners?corridor=SG')).body.partners[0].partner_id).toBe(singapore.partnerId);
    expect((await service.admin('GET', '/partners?kyc_status=approved')).body).toEqual({ count: 0, partners: [] });
    expect((await service.admin('GET', '/partners?limit=1')).body.count).toBe(1);

    expectRefusal(await service.admin('GET', '/partners?corridor=US'), 400, 'validation_failed', 'corridor');
    expectRefusal(await service.admin('GET', '/partners?kyc=approved'), 400, 'validation_failed', 'kyc');
    expectRefusal(await service.admin('GET', '/partners?limit=0'), 400, 'validation_failed', 'limit');
    expectRefusal(await service.request('GET', '/v1/admin/partners'), 401, 'invalid_admin_token');
  });

  it("shows a partner's settings for one environment", async () => {
    await service.admin('PATCH', `/partners/${indian.partnerId}/settings`, { environment: 'sandbox', rate_limit: 77 });
    const shown = await service.admin('GET', `/partners/${indian.partnerId}/settings?environment=sandbox`);
    expect(shown.status).toBe(200);
    expect(shown.body).toMatchObject({
      partner_id: indian.partnerId,
      environment: 'sandbox',
      rate_limit_per_minute: 77,
      webhook_url: null,
    });
    expect(JSON.stringify(shown.body)).not.toMatch(/whsec_/);
    expectRefusal(
      await service.admin('GET', `/partners/${indian.partnerId}/settings`),
      400,
      'validation_failed',
      'environment',
    );
    expectRefusal(await service.admin('GET', '/partners/ptr_nobody/settings?environment=sandbox'), 404, 'not_found');
  });

  it('searches orders across partners by partner, status, date, reference, phone and consumer number', async () => {
    expect(ids(await service.admin('GET', '/orders'))).toEqual(Object.values(orderIds).sort());
    expect(ids(await service.admin('GET', `/orders?partner_id=${indian.partnerId}&environment=sandbox`))).toHaveLength(
      3,
    );
    expect(ids(await service.admin('GET', `/orders?partner_id=${singapore.partnerId}`))).toEqual([]);
    expect(ids(await service.admin('GET', '/orders?status=FAILED'))).toEqual([orderIds.failedIn]);
    expect(ids(await service.admin('GET', '/orders?reference=inv-1'))).toEqual([orderIds.topupIn]);
    expect(ids(await service.admin('GET', `/orders?phone=${encodeURIComponent('+91 98765 40002')}`))).toEqual([
      orderIds.failedIn,
    ]);
    expect(ids(await service.admin('GET', '/orders?phone=919876540001'))).toEqual([orderIds.topupIn]);
    expect(ids(await service.admin('GET', '/orders?consumer_number=1234560001'))).toEqual([orderIds.billIn]);
    const today = service.clock.now().toISOString().slice(0, 10);
    const tomorrow = new Date(service.clock.now().getTime() + 86_400_000).toISOString().slice(0, 10);
    expect(ids(await service.admin('GET', `/orders?created_from=${today}&created_to=${tomorrow}`))).toHaveLength(3);
    expect(ids(await service.admin('GET', `/orders?created_from=${tomorrow}`))).toEqual([]);
    const found = (await service.admin('GET', `/orders?reference=inv-2`)).body.orders[0];
    expect(found).toMatchObject({
      order_id: orderIds.failedIn,
      partner_id: indian.partnerId,
      status: 'FAILED',
      public_status: 'FAILED',
      amount: '20.00',
      currency: 'INR',
    });

    expectRefusal(await service.admin('GET', '/orders?status=LOST'), 400, 'validation_failed', 'status');
    expectRefusal(
      await service.admin('GET', '/orders?created_from=2026-02-30'),
      400,
      'validation_failed',
      'created_from',
    );
    expectRefusal(await service.admin('GET', '/orders?phone=call-me'), 400, 'validation_failed', 'phone');
    expectRefusal(await service.admin('GET', '/orders?held=true&status=FAILED'), 400, 'validation_failed', 'held');
    expectRefusal(await service.admin('GET', '/orders?colour=red'), 400, 'validation_failed', 'colour');
    expectRefusal(await service.admin('GET', '/orders?reference=a&reference=b'), 400, 'validation_failed', 'reference');
  });

  it('shows the job backlog by kind: open, due, retrying and running', async () => {
    const quiet = await service.admin('GET', '/jobs');
    expect(quiet.status).toBe(200);
    expect(quiet.body).toMatchObject({ as_of: service.clock.now().toISOString(), due: 0 });
    // An unanswered sandbox order (0005) leaves a poll and its stuck-order check waiting.
    const stuck = await service.topup(
      indian.sandboxKey,
      { operator_id: 101, phone: SANDBOX_PHONES.IN('0005'), amount: 10 },
      'search-stuck',
    );
    expect(stuck.status).toBe(200);
    await service.settle();
    const waiting = await service.admin('GET', '/jobs');
    const kinds = waiting.body.kinds.map((line: { kind: string }) => line.kind);
    expect(kinds).toContain('hold-stuck-order');
    expect(waiting.body.open).toBeGreaterThan(quiet.body.open);
    for (const line of waiting.body.kinds)
      expect(line).toEqual({
        kind: expect.any(String),
        open: expect.any(Number),
        due: 0,
        retrying: expect.any(Number),
        running: 0,
        oldest_due_at: expect.any(String),
        last_error: line.last_error,
      });
    expectRefusal(await service.admin('GET', '/jobs?kind=x'), 400, 'validation_failed', 'kind');
  });
});
