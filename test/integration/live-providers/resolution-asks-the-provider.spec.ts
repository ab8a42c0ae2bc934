import { expectRefusal } from '../../support/error-assertions';
import { LiveUpstream, startLiveReloadlyService, transactionsOf } from '../../support/live-provider';
import { TestService } from '../../support/test-service';
import { SERVICE_START_TIMEOUT_MS } from '../../support/timeouts';

const STUCK_AFTER_MS = 60_000;
const MINUTE = 60_000;
const cents = (amount: string): bigint => BigInt(amount.replace('.', ''));

/**
 * Held live orders against a Reloadly-protocol simulator: the provider is still asked about them after the hold
 * (docs/decisions/0117-held-orders-followed.md), its word ends them, and a manual resolution asks it first
 * (docs/decisions/0118-resolution-asks-the-provider.md).
 */
describe('held live orders: followed at the provider, and resolved only as its answer allows (postgres store)', () => {
  let upstream: LiveUpstream;
  let service: TestService;
  let liveKey: string;

  beforeAll(async () => {
    ({ upstream, service, liveKey } = await startLiveReloadlyService(STUCK_AFTER_MS));
  }, SERVICE_START_TIMEOUT_MS);
  afterAll(async () => {
    await service?.close();
    await upstream?.close();
  });

  const balance = async () => (await service.partner('GET', '/balance', liveKey)).body.available;
  const resolve = (orderId: string, body: Record<string, unknown>, token?: string) =>
    token
      ? service.adminAs(token, 'POST', `/orders/${orderId}/resolve`, body)
      : service.admin('POST', `/orders/${orderId}/resolve`, body);
  const statusOf = async (orderId: string) => (await service.admin('GET', `/orders/${orderId}`)).body.status;
  const lookUpsOf = async (orderId: string) =>
    ((await service.admin('GET', `/audit/orders/${orderId}`)).body.events as { event_type: string }[]).filter(
      (event) => event.event_type === 'TransactionLookedUp',
    ).length;

  /** A live topup the simulator keeps PROCESSING (suffix 0005), held at the stuck limit. */
  async function heldOrder(key: string): Promise<string> {
    const placed = await service.topup(liveKey, { operator_id: 101, phone: '+919876540005', amount: 150 }, key);
    expect(placed.status).toBe(200);
    await service.settle();
    await service.advance(STUCK_AFTER_MS + 1_000);
    expect(await statusOf(placed.body.order_id)).toBe('DISPUTED');
    return placed.body.order_id;
  }

  it("lists a held order with the provider's last word, when it was asked and when it is asked next", async () => {
    const orderId = await heldOrder('followed-held-0001');
    const listed = (await service.admin('GET', '/orders?held=true&limit=1000')).body.orders as {
      order_id: string;
      follow_up: { last_word: string; asked_at: string; next_ask_at: string; asked_until: string } | null;
    }[];
    const followUp = listed.find((order) => order.order_id === orderId)?.follow_up;
    expect(followUp?.last_word).toMatch(/processing/i);
    expect(Date.parse(followUp?.asked_at ?? '')).toBeLessThanOrEqual(service.clock.now().getTime());
    expect(Date.parse(followUp?.next_ask_at ?? '')).toBeGreaterThan(service.clock.now().getTime());
    expect(Date.parse(followUp?.next_ask_at ?? '')).toBeLessThanOrEqual(service.clock.now().getTime() + MINUTE);
    // Reloadly's topups are followed for a day after placement (decision 0117).
    const placedAt = Date.parse((await service.admin('GET', `/orders/${orderId}`)).body.created_at);
    expect(Date.parse(followUp?.asked_until ?? '')).toBe(placedAt + 24 * 60 * MINUTE);

    // The next look-up happens on its own; still processing, the order stays held and the look-up is evidence.
    const asksBefore = await lookUpsOf(orderId);
    await service.advance(MINUTE);
    expect(await lookUpsOf(orderId)).toBe(asksBefore + 1);
    expect(await statusOf(orderId)).toBe('DISPUTED');
  });

  it('ends a held order by itself when the provider later reports it delivered: settled once, with no refund', async () => {
    const orderId = await heldOrder('followed-held-0002');
    const before = await balance();
    transactionsOf(upstream, orderId)[0].status = 'SUCCESSFUL';
    await service.advance(2 * MINUTE);
    expect(await statusOf(orderId)).toBe('SUCCESS');
    const shown = (await service.partner('GET', `/transactions/${orderId}`, liveKey)).body;
    expect(shown).toMatchObject({ status: 'SUCCESS', refunded_at: null });
    expect(await balance()).toBe(before);
    const events = (await service.admin('GET', `/audit/orders/${orderId}`)).body.events as {
      event_type: string;
      data: Record<string, unknown>;
    }[];
    const settled = events.filter((event) => event.event_type === 'TransactionSettled');
    expect(settled).toHaveLength(1);
    expect(settled[0].data.resolvedBy).toBeNull();
    expectRefusal(await resolve(orderId, { outcome: 'failed', reason: 'too late' }), 409, 'invalid_state');
  });

  it('refuses to fail an order the provider is still processing; an owner may, with a reason, and the answer is recorded', async () => {
    const orderId = await heldOrder('followed-held-0003');
    const before = await balance();

    const refused = await resolve(orderId, { outcome: 'failed', reason: 'the customer says nothing arrived' });
    expectRefusal(refused, 409, 'invalid_state');
    expect(refused.body.detail).toContain('the provider answers pending');
    const operatorToken = await service.operatorToken('ops-olga', 'operator');
    expectRefusal(
      await resolve(orderId, { outcome: 'failed', reason: 'nothing arrived' }, operatorToken),
      409,
      'invalid_state',
    );
    expectRefusal(
      await resolve(orderId, { outcome: 'failed', reason: 'nothing arrived', against_provider: true }, operatorToken),
      403,
      'role_forbidden',
    );
    expectRefusal(
      await resolve(orderId, { outcome: 'failed', reason: 'checked', against_provider: 'yes' }),
      400,
      'validation_failed',
    );
    await service.settle();
    expect(await balance()).toBe(before);
    expect(await statusOf(orderId)).toBe('DISPUTED');

    const overridden = await resolve(orderId, {
      outcome: 'failed',
      reason: 'the operator confirmed in writing that the recharge was never applied',
      against_provider: true,
    });
    expect(overridden.status).toBe(200);
    expect(overridden.body).toMatchObject({
      status: 'FAILED',
      against_provider: true,
      provider_answer: { word: 'pending', asked_at: expect.any(String) },
    });
    await service.settle();
    expect(cents(await balance())).toBe(cents(before) + 15_000n);
    const events = (await service.admin('GET', `/audit/orders/${orderId}`)).body.events as {
      event_type: string;
      data: Record<string, unknown>;
    }[];
    expect(events.find((event) => event.event_type === 'TransactionFailed')?.data).toMatchObject({
      againstProvider: true,
      providerAnswer: { word: 'pending' },
    });
    expect(events.filter((event) => event.event_type === 'WalletRefunded')).toHaveLength(1);
  });

  it('lets an operator fail an order the provider reports failed, and refuses to settle it', async () => {
    const orderId = await heldOrder('followed-held-0004');
    const before = await balance();
    transactionsOf(upstream, orderId)[0].status = 'FAILED';

    const settled = await resolve(orderId, { outcome: 'success', reason: 'the customer says it arrived' });
    expectRefusal(settled, 409, 'invalid_state');
    expect(settled.body.detail).toContain('the provider answers failed');

    const operatorToken = await service.operatorToken('ops-olga', 'operator');
    const failed = await resolve(orderId, { outcome: 'failed', reason: 'the provider failed it' }, operatorToken);
    expect(failed.status).toBe(200);
    expect(failed.body).toMatchObject({
      status: 'FAILED',
      against_provider: false,
      provider_answer: { word: 'failed' },
    });
    await service.settle();
    expect(cents(await balance())).toBe(cents(before) + 15_000n);
    expect((await service.verify()).body).toMatchObject({ ok: true, breaches: [] });
  });
});
