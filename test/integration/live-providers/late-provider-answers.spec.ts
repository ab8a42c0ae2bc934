import { Logger } from '@nestjs/common';
import { OrderLifecycle } from '../../../src/application/settlement/order-lifecycle';
import { ProviderOutcome } from '../../../src/application/ports/provider-gateway.port';
import { orderEvents } from '../../support/ledger';
import { SANDBOX_PHONES, TEST_ADMIN_TOKEN, TestService } from '../../support/test-service';

const STUCK_AFTER_MS = 60_000;

/** A provider's answer that arrives once the order already has its outcome changes no money, but nobody may miss it. */
describe('provider answers after an order was resolved', () => {
  let service: TestService;
  let key: string;
  let warnings: string[];

  beforeAll(async () => {
    service = await TestService.start({
      store: 'postgres',
      env: { STUCK_ORDER_AFTER_SECONDS: String(STUCK_AFTER_MS / 1000) },
    });
  });
  afterAll(async () => {
    await service.close();
  });
  beforeEach(async () => {
    ({ sandboxKey: key } = await service.createPartner('IN'));
    warnings = [];
    // The log is silent in tests; what the service warns about is caught where it is written.
    jest.spyOn(Logger.prototype, 'warn').mockImplementation((message: unknown) => {
      warnings.push(String(message));
    });
  });
  afterEach(() => jest.restoreAllMocks());

  const balance = async () => (await service.partner('GET', '/balance', key)).body.available;
  const metric = async (name: string, labels: string) => {
    const text = (await service.request('GET', '/metrics', { token: TEST_ADMIN_TOKEN })).text;
    const line = text.split('\n').find((candidate) => candidate.startsWith(`partner_service_${name}${labels} `));
    return Number(line?.split(' ')[1]);
  };
  const resolve = async (orderId: string, outcome: 'success' | 'failed') =>
    service.adminAs(await service.operatorToken('ops.asha', 'operator'), 'POST', `/orders/${orderId}/resolve`, {
      outcome,
      reason: `checked: ${outcome}`,
    });
  /** A 0005 order (never answered), held once it is older than the stuck limit. */
  const heldOrder = async (idempotencyKey: string): Promise<string> => {
    const placed = await service.topup(
      key,
      { operator_id: 101, phone: SANDBOX_PHONES.IN('0005'), amount: 100 },
      idempotencyKey,
    );
    expect(placed.status).toBe(200);
    await service.settle();
    await service.advance(STUCK_AFTER_MS);
    expect((await service.admin('GET', `/orders/${placed.body.order_id}`)).body.status).toBe('DISPUTED');
    return placed.body.order_id;
  };
  const providerSays = (orderId: string, outcome: Extract<ProviderOutcome, { status: 'succeeded' | 'failed' }>) =>
    service.app.get(OrderLifecycle).recordOutcome(
      {
        orderId,
        amount: '100.00',
        currency: 'INR',
        product: { kind: 'topup', operatorId: 101, phone: SANDBOX_PHONES.IN('0005') },
        placedAt: service.clock.now().toISOString(),
        route: null,
      },
      'sandbox',
      outcome,
    );

  it('a held order refunded by an operator that the provider then reports succeeded: recorded, shown, counted and logged; the refund stands', async () => {
    const before = await metric('provider_answers_after_outcome', '{contradicts="true"}');
    const orderId = await heldOrder('late-success-after-refund');
    expect((await resolve(orderId, 'failed')).status).toBe(200);
    await service.settle();
    expect(await balance()).toBe('1000.00');

    await providerSays(orderId, { status: 'succeeded', operatorRef: 'OP-LATE-1' });
    await service.settle();

    expect(await orderEvents(service, orderId, 'ProviderAnsweredAfterOutcome')).toHaveLength(1);
    const shown = await service.admin('GET', `/orders/${orderId}`);
    expect(shown.body).toMatchObject({
      status: 'FAILED',
      provider_answer_after_outcome: {
        outcome: 'succeeded',
        operator_ref: 'OP-LATE-1',
        reason: null,
        answered_at: expect.any(String),
        recorded_status: 'FAILED',
        contradicts_outcome: true,
      },
    });
    const audit = await service.admin('GET', `/audit/orders/${orderId}`);
    expect(audit.body.outcome).toBe('FAILED');
    expect(audit.body.events.map((event: { event_type: string }) => event.event_type)).toContain(
      'ProviderAnsweredAfterOutcome',
    );
    expect(await metric('provider_answers_after_outcome', '{contradicts="true"}')).toBe(before + 1);
    expect(warnings).toEqual([
      expect.stringMatching(
        new RegExp(`order ${orderId}: the provider answered succeeded .* although the order is FAILED, contradicting`),
      ),
    ]);
    expect(await balance()).toBe('1000.00');
    expect((await service.verify()).body.ok).toBe(true);
  });

  it('a held order settled by an operator that the provider then reports failed: recorded once, no refund', async () => {
    const orderId = await heldOrder('late-failure-after-success');
    expect((await resolve(orderId, 'success')).status).toBe(200);
    await service.settle();

    await providerSays(orderId, { status: 'failed', reason: 'operator declined', basis: 'provider_record' });
    await providerSays(orderId, { status: 'failed', reason: 'operator declined again', basis: 'provider_record' });
    await service.settle();

    expect(await orderEvents(service, orderId, 'ProviderAnsweredAfterOutcome')).toHaveLength(1);
    expect(await orderEvents(service, orderId, 'WalletRefunded')).toHaveLength(0);
    expect((await service.admin('GET', `/orders/${orderId}`)).body).toMatchObject({
      status: 'SUCCESS',
      provider_answer_after_outcome: {
        outcome: 'failed',
        reason: 'operator declined',
        recorded_status: 'SUCCESS',
        contradicts_outcome: true,
      },
    });
    expect(await balance()).toBe('900.00');
    expect(warnings).toHaveLength(1);
  });

  it('the metrics are for operators only: no token or a partner key gets 401', async () => {
    expect((await service.request('GET', '/metrics')).status).toBe(401);
    expect((await service.request('GET', '/metrics', { token: key })).status).toBe(401);
  });

  it('a provider repeating its own answer to a settled order adds nothing', async () => {
    const placed = await service.topup(
      key,
      { operator_id: 101, phone: SANDBOX_PHONES.IN('0001'), amount: 100 },
      'repeat-own-answer',
    );
    await service.settle();
    expect((await service.admin('GET', `/orders/${placed.body.order_id}`)).body.status).toBe('SUCCESS');
    await providerSays(placed.body.order_id, { status: 'succeeded', operatorRef: 'again' });
    expect(await orderEvents(service, placed.body.order_id, 'ProviderAnsweredAfterOutcome')).toHaveLength(0);
    expect(warnings).toHaveLength(0);
  });
});
