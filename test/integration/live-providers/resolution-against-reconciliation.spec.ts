import { expectRefusal } from '../../support/error-assertions';
import { LiveUpstream, startLiveReloadlyService, transactionsOf } from '../../support/live-provider';
import { TestService } from '../../support/test-service';
import { SERVICE_START_TIMEOUT_MS } from '../../support/timeouts';

const DAY_MS = 86_400_000;
const STUCK_AFTER_MS = 60_000;

/**
 * An operator resolving a held order by hand against what reconciliation found in the provider's
 * report: failing (and refunding) an order the provider reports paid is refused unless the operator
 * says it is meant.
 */
describe('manual resolution against a reconciliation finding (simulator over HTTP, postgres store)', () => {
  let upstream: LiveUpstream;
  let service: TestService;
  let liveKey: string;
  let orderId: string;

  beforeAll(async () => {
    ({ upstream, service, liveKey } = await startLiveReloadlyService(STUCK_AFTER_MS));
    const placed = await service.topup(
      liveKey,
      { operator_id: 101, phone: '+919876540005', amount: 199 },
      'held-order-0001',
    );
    expect(placed.status).toBe(200);
    orderId = placed.body.order_id;
    await service.settle();
    await service.advance(STUCK_AFTER_MS + 1_000);
    const held = (await service.admin('GET', '/orders?held=true&limit=1000')).body.orders as { order_id: string }[];
    expect(held.map((order) => order.order_id)).toContain(orderId);
  }, SERVICE_START_TIMEOUT_MS);
  afterAll(async () => {
    await service?.close();
    await upstream?.close();
  });

  const balance = async () => (await service.partner('GET', '/balance', liveKey)).body.available;
  const resolve = (body: Record<string, unknown>) => service.admin('POST', `/orders/${orderId}/resolve`, body);

  it('refuses to fail and refund an order the provider reports paid, even when said to be meant while the provider still says paid', async () => {
    // The provider's report shows the held order paid after all; a run of the day (the POST) records it.
    const day = service.clock.now().toISOString().slice(0, 10);
    transactionsOf(upstream, orderId)[0].status = 'SUCCESSFUL';
    service.clock.advance(DAY_MS);
    const report = await service.admin('POST', '/providers/reconciliation', { date: day });
    expect(report.body).toMatchObject({ complete: true, counts: { status_mismatch: 1 }, recorded: 1 });
    const before = await balance();

    const refused = await resolve({ outcome: 'failed', reason: 'customer says nothing arrived' });
    expectRefusal(refused, 409, 'invalid_state');
    expect(refused.body.detail).toContain('reconciliation found that the provider reports');
    expectRefusal(
      await resolve({ outcome: 'failed', reason: 'checked', against_reconciliation: 'yes' }),
      400,
      'validation_failed',
    );
    expectRefusal(
      await resolve({ outcome: 'failed', reason: 'checked', against_reconciliation: null }),
      400,
      'validation_failed',
    );
    expect(await balance()).toBe(before);
    expect((await service.admin('GET', `/orders/${orderId}`)).body.status).toBe('DISPUTED');

    // Said to be meant against reconciliation, it is still refused: asked now, the provider answers that it succeeded.
    const meant = await resolve({
      outcome: 'failed',
      reason: 'the provider confirmed in writing that it reversed the recharge',
      against_reconciliation: true,
    });
    expectRefusal(meant, 409, 'invalid_state');
    expect(meant.body.detail).toContain('the provider answers succeeded');

    // Its next look-up ends the held order as the provider says: settled, the debit stands, nothing is refunded.
    await service.settle();
    expect((await service.admin('GET', `/orders/${orderId}`)).body.status).toBe('SUCCESS');
    expect(await balance()).toBe(before);
    expect((await service.verify()).body).toMatchObject({ ok: true, breaches: [] });
  });
});
