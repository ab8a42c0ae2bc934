import {
  PROVIDER_DIRECTORY,
  ProviderDirectory,
  ProviderOutcome,
} from '../../../src/application/ports/provider-gateway.port';
import { OrderLifecycle } from '../../../src/application/settlement/order-lifecycle';
import { SubmitOrderJob } from '../../../src/application/settlement/submit-order.job';
import { ProjectionDaemon } from '../../../src/infrastructure/projections/projection-daemon';
import { expectRefusal } from '../../support/error-assertions';
import { orderEvents, sqlOf } from '../../support/ledger';
import { SANDBOX_PHONES, STORES, TestService } from '../../support/test-service';
import { SubmitOrderPayload } from '../../../src/application/ports/job-payloads';

const STUCK_AFTER_MS = 60_000;

describe.each(STORES)('orders stuck at the provider are held for an operator (%s store)', (store) => {
  let service: TestService;
  let key: string;

  beforeAll(async () => {
    service = await TestService.start({ store, env: { STUCK_ORDER_AFTER_SECONDS: String(STUCK_AFTER_MS / 1000) } });
  });
  afterAll(async () => {
    await service.close();
  });
  beforeEach(async () => {
    ({ sandboxKey: key } = await service.createPartner('IN'));
  });

  const topup = async (suffix: string, idempotencyKey: string): Promise<string> => {
    const placed = await service.topup(
      key,
      { operator_id: 101, phone: SANDBOX_PHONES.IN(suffix), amount: 100 },
      idempotencyKey,
    );
    expect(placed.status).toBe(200);
    return placed.body.order_id;
  };
  const partnerView = async (orderId: string) => (await service.partner('GET', `/transactions/${orderId}`, key)).body;
  const balance = async () => (await service.partner('GET', '/balance', key)).body.available;
  const heldOrder = async (orderId: string) => {
    const listed = await service.admin('GET', '/orders?held=true&limit=1000');
    expect(listed.status).toBe(200);
    return (listed.body.orders as { order_id: string; status: string }[]).find((order) => order.order_id === orderId);
  };
  /** A resolution with the token of the operator named: the actor recorded is the token's operator. */
  const resolve = async (orderId: string, outcome: 'success' | 'failed', operator = 'ops.asha') =>
    service.adminAs(await service.operatorToken(operator, 'operator'), 'POST', `/orders/${orderId}/resolve`, {
      outcome,
      reason: `checked with the operator: ${outcome}`,
    });
  /** Places a 0005 order and lets it age until it is held. */
  const heldOrderId = async (idempotencyKey: string): Promise<string> => {
    const orderId = await topup('0005', idempotencyKey);
    await service.settle();
    await service.advance(STUCK_AFTER_MS);
    expect((await heldOrder(orderId))?.status).toBe('DISPUTED');
    return orderId;
  };

  it('a 0005 order stays PENDING for the partner and is listed for operators as DISPUTED once it is older than the stuck limit', async () => {
    const orderId = await topup('0005', 'stuck-listed-01');
    await service.settle();
    await service.advance(STUCK_AFTER_MS - 1_000);
    expect(await heldOrder(orderId)).toBeUndefined();

    await service.advance(1_000);
    expect(await heldOrder(orderId)).toMatchObject({ order_id: orderId, status: 'DISPUTED', public_status: 'PENDING' });
    expect(await partnerView(orderId)).toMatchObject({
      status: 'PENDING',
      settled_at: null,
      refunded_at: null,
      operator_ref: null,
    });
    expect(await balance()).toBe('900.00');
    expect(await orderEvents(service, orderId, 'WalletRefunded')).toHaveLength(0);
  });

  const stuckCheck = async (orderId: string) =>
    (
      await sqlOf(service).query<{ done: boolean; attempts: number }>(
        `SELECT done_at IS NOT NULL AS done, attempts FROM jobs WHERE job_id = $1`,
        [`hold-stuck-order:${orderId}`],
      )
    )[0];

  it('an order with a final outcome at once (0001, 0002) never gets a stuck-order check; one answered after a poll (0003) has it closed without it ever running', async () => {
    const atOnce = [await topup('0001', 'closed-check-0001'), await topup('0002', 'closed-check-0002')];
    const polled = await topup('0003', 'closed-check-0003');
    const never = await topup('0005', 'closed-check-0005');
    await service.settle();
    for (const orderId of atOnce) expect(await stuckCheck(orderId)).toBeUndefined();
    expect(await stuckCheck(polled)).toEqual({ done: false, attempts: 0 });
    expect(await stuckCheck(never)).toEqual({ done: false, attempts: 0 });

    await service.advance(30_000); // the sandbox's delayed answer for 0003
    expect((await partnerView(polled)).status).toBe('SUCCESS');
    expect(await stuckCheck(polled)).toEqual({ done: true, attempts: 0 });

    await service.advance(STUCK_AFTER_MS);
    expect(await stuckCheck(never)).toEqual({ done: true, attempts: 1 });
    expect((await heldOrder(never))?.status).toBe('DISPUTED');
    for (const orderId of [...atOnce, polled]) expect(await heldOrder(orderId)).toBeUndefined();
  });

  it('an order whose provider stays down is still held once it is older than the stuck limit, and the provider coming back changes nothing', async () => {
    const provider = service.app.get<ProviderDirectory>(PROVIDER_DIRECTORY).sandbox();
    // Submitted, as an order a provider must be asked about is (not answered at placement).
    const asked = jest.spyOn(provider, 'answerWithoutCall').mockReturnValue(null);
    const down = jest.spyOn(provider, 'submit').mockRejectedValue(new Error('provider unreachable'));
    try {
      const orderId = await topup('0001', 'provider-down-0001');
      await service.settle();
      expect(await stuckCheck(orderId)).toEqual({ done: false, attempts: 0 });
      expect((await partnerView(orderId)).status).toBe('PENDING');

      await service.advance(STUCK_AFTER_MS);
      expect((await heldOrder(orderId))?.status).toBe('DISPUTED');
      expect(await balance()).toBe('900.00');

      down.mockRestore();
      await service.advance(STUCK_AFTER_MS);
      expect((await heldOrder(orderId))?.status).toBe('DISPUTED');
      expect((await partnerView(orderId)).status).toBe('PENDING');
      expect(await orderEvents(service, orderId, 'TransactionSettled')).toHaveLength(0);
      expect(await orderEvents(service, orderId, 'WalletRefunded')).toHaveLength(0);
    } finally {
      down.mockRestore();
      asked.mockRestore();
    }
  });

  it("an order whose submission is tried again while the provider never answers is still held at the stuck limit, and the provider's late success then settles it, once", async () => {
    const provider = service.app.get<ProviderDirectory>(PROVIDER_DIRECTORY).sandbox();
    jest.spyOn(provider, 'answerWithoutCall').mockReturnValue(null);
    let answer: (outcome: ProviderOutcome) => void = () => undefined;
    let called: () => void = () => undefined;
    const providerCalled = new Promise<void>((resolve) => (called = resolve));
    jest.spyOn(provider, 'submit').mockImplementation(
      () =>
        new Promise<ProviderOutcome>((resolve) => {
          answer = resolve;
          called();
        }),
    );
    try {
      const orderId = await topup('0001', 'provider-silent-0001');
      // The outbox schedules the submission; a second worker then takes it over after the first one's lease ran out.
      await service.app.get(ProjectionDaemon).catchUpAll();
      const [row] = await sqlOf(service).query<{
        job_id: string;
        kind: 'submit-order';
        payload: SubmitOrderPayload;
        due_at: Date;
      }>(`SELECT job_id, kind, payload, due_at FROM jobs WHERE job_id = $1`, [`submit-order:${orderId}`]);
      await sqlOf(service).query(`UPDATE jobs SET locked_until = $2, attempts = 1 WHERE job_id = $1`, [
        row.job_id,
        new Date(service.clock.now().getTime() + 3_600_000).toISOString(),
      ]);
      const retried = service.app
        .get(SubmitOrderJob)
        .run({ id: row.job_id, kind: row.kind, payload: row.payload, dueAt: new Date(row.due_at) }, 2);
      await providerCalled;
      expect(await stuckCheck(orderId)).toEqual({ done: false, attempts: 0 });

      await service.advance(STUCK_AFTER_MS);
      expect((await heldOrder(orderId))?.status).toBe('DISPUTED');

      answer({ status: 'succeeded', operatorRef: 'late-answer' });
      await retried;
      await service.settle();
      // A hold means "a person should look", not "stop asking": the provider's word decides the order.
      expect(await heldOrder(orderId)).toBeUndefined();
      expect(await partnerView(orderId)).toMatchObject({ status: 'SUCCESS', operator_ref: 'late-answer' });
      expect(await orderEvents(service, orderId, 'TransactionSettled')).toHaveLength(1);
      expect(await orderEvents(service, orderId, 'ProviderAnsweredAfterHold')).toHaveLength(0);
      expect(await balance()).toBe('900.00');

      // Nothing is left to resolve: the order cannot be failed and refunded against the provider's success.
      const refund = await resolve(orderId, 'failed');
      expectRefusal(refund, 409, 'invalid_state');
      await service.settle();
      expect(await orderEvents(service, orderId, 'WalletRefunded')).toHaveLength(0);
      expect(await balance()).toBe('900.00');
    } finally {
      jest.restoreAllMocks();
    }
  });

  it('a held order whose provider later records a failure is failed and refunded once by that word; later answers add nothing', async () => {
    const orderId = await heldOrderId('late-failure-01');
    const lifecycle = service.app.get(OrderLifecycle);
    const order = {
      orderId,
      amount: '100.00',
      currency: 'INR' as const,
      product: { kind: 'topup' as const, operatorId: 101, phone: SANDBOX_PHONES.IN('0005') },
      placedAt: service.clock.now().toISOString(),
      route: null,
    };
    await lifecycle.recordOutcome(order, 'sandbox', {
      status: 'failed',
      reason: 'operator declined',
      basis: 'provider_record',
    });
    await lifecycle.recordOutcome(order, 'sandbox', {
      status: 'failed',
      reason: 'operator declined',
      basis: 'provider_record',
    });
    await service.settle();

    expect(await heldOrder(orderId)).toBeUndefined();
    expect(await partnerView(orderId)).toMatchObject({ status: 'FAILED', refunded_at: expect.any(String) });
    expect(await orderEvents(service, orderId, 'TransactionFailed')).toHaveLength(1);
    expect(await orderEvents(service, orderId, 'WalletRefunded')).toHaveLength(1);
    expect(await balance()).toBe('1000.00');

    // A contradicting success after the refund changes nothing and is recorded once, for finance.
    await lifecycle.recordOutcome(order, 'sandbox', { status: 'succeeded', operatorRef: 'even-later' });
    await lifecycle.recordOutcome(order, 'sandbox', { status: 'succeeded', operatorRef: 'even-later' });
    await service.settle();
    expect(await orderEvents(service, orderId, 'ProviderAnsweredAfterOutcome')).toHaveLength(1);
    expect((await partnerView(orderId)).status).toBe('FAILED');
    expect(await orderEvents(service, orderId, 'WalletRefunded')).toHaveLength(1);
    expect(await balance()).toBe('1000.00');
    expectRefusal(await resolve(orderId, 'success'), 409, 'invalid_state');
  });

  it('resolving a held order as success shows SUCCESS to the partner with settled_at and operator_ref, and refunds nothing', async () => {
    const orderId = await heldOrderId('stuck-success-1');

    const resolved = await resolve(orderId, 'success');
    expect(resolved.status).toBe(200);
    await service.settle();

    const view = await partnerView(orderId);
    expect(view).toMatchObject({ status: 'SUCCESS', refunded_at: null });
    expect(view.settled_at).toEqual(expect.any(String));
    expect(view.operator_ref).toEqual(expect.any(String));
    expect(await balance()).toBe('900.00');
    expect(await orderEvents(service, orderId, 'WalletRefunded')).toHaveLength(0);
    expect(await heldOrder(orderId)).toBeUndefined();
  });

  it('resolving a held order as failed shows FAILED to the partner and refunds the wallet exactly once', async () => {
    const orderId = await heldOrderId('stuck-failed-01');

    const resolved = await resolve(orderId, 'failed');
    expect(resolved.status).toBe(200);
    await service.settle();

    const view = await partnerView(orderId);
    expect(view).toMatchObject({ status: 'FAILED', settled_at: null });
    expect(view.refunded_at).toEqual(expect.any(String));
    expect(await balance()).toBe('1000.00');
    expect(await orderEvents(service, orderId, 'WalletRefunded')).toHaveLength(1);
  });

  it('resolving an order a second time is refused with 409 invalid_state and refunds nothing more', async () => {
    const orderId = await heldOrderId('stuck-twice-001');
    expect((await resolve(orderId, 'failed')).status).toBe(200);
    await service.settle();

    const again = await resolve(orderId, 'failed');
    expect(again.status).toBe(409);
    expect(again.body.error).toBe('invalid_state');
    const flipped = await resolve(orderId, 'success');
    expect(flipped.status).toBe(409);
    expect(flipped.body.error).toBe('invalid_state');
    await service.settle();

    expect(await partnerView(orderId)).toMatchObject({ status: 'FAILED' });
    expect(await orderEvents(service, orderId, 'WalletRefunded')).toHaveLength(1);
    expect(await balance()).toBe('1000.00');
  });

  it('an order that is not held (a 0003 order still waiting for its provider) cannot be resolved: 409', async () => {
    const orderId = await topup('0003', 'not-held-0003-1');
    await service.settle();

    const refused = await resolve(orderId, 'failed');
    expect(refused.status).toBe(409);
    expect(refused.body.error).toBe('invalid_state');
    await service.settle();
    expect(await orderEvents(service, orderId, 'TransactionFailed')).toHaveLength(0);
    expect(await orderEvents(service, orderId, 'WalletRefunded')).toHaveLength(0);
    expect(await balance()).toBe('900.00');
  });

  it('an order placed a moment ago, before it even reached the provider, cannot be resolved: 409', async () => {
    const orderId = await topup('0003', 'not-held-0003-2');

    const refused = await resolve(orderId, 'failed');
    expect(refused.status).toBe(409);
    expect(refused.body.error).toBe('invalid_state');
    await service.settle();
    expect(await partnerView(orderId)).toMatchObject({ status: 'PENDING', refunded_at: null });
    expect(await orderEvents(service, orderId, 'TransactionFailed')).toHaveLength(0);
    expect(await orderEvents(service, orderId, 'WalletRefunded')).toHaveLength(0);
    expect(await balance()).toBe('900.00');
  });

  it('resolving an order that does not exist answers 404 not_found', async () => {
    const refused = await resolve('ord_does_not_exist', 'success');
    expect(refused.status).toBe(404);
    expect(refused.body.error).toBe('not_found');
  });

  it('a resolution is recorded in the log with the operator who made it as the actor', async () => {
    const succeeded = await heldOrderId('stuck-actor-ok1');
    const failed = await heldOrderId('stuck-actor-ko1');
    expect((await resolve(succeeded, 'success', 'ops.ravi')).status).toBe(200);
    expect((await resolve(failed, 'failed', 'ops.meera')).status).toBe(200);
    await service.settle();

    const [settlement] = await orderEvents(service, succeeded, 'TransactionSettled');
    expect(settlement.metadata.actor).toEqual({ type: 'operator', id: 'ops.ravi' });
    expect(settlement.data.resolvedBy).toEqual({ type: 'operator', id: 'ops.ravi' });
    const [failure] = await orderEvents(service, failed, 'TransactionFailed');
    expect(failure.metadata.actor).toEqual({ type: 'operator', id: 'ops.meera' });
    expect(failure.data.resolvedBy).toEqual({ type: 'operator', id: 'ops.meera' });
  });

  it('leaves the money invariants intact', async () => {
    await service.settle();
    expect((await service.verify()).body).toMatchObject({ ok: true, breaches: [] });
  });
});
