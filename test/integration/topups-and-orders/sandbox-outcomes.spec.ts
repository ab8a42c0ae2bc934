import { EVENT_STORE, EventStore } from '../../../src/application/ports/event-store.port';
import { PROVIDER_DIRECTORY, ProviderDirectory } from '../../../src/application/ports/provider-gateway.port';
import { OrderLifecycle } from '../../../src/application/settlement/order-lifecycle';
import { RefundOrderJob } from '../../../src/application/settlement/refund-order.job';
import { transactionStreamId } from '../../../src/domain/transaction/transaction.events';
import { EVENTS_BY_CORRELATION, EventsByCorrelation } from '../../../src/application/ports/events-by-correlation.port';
import { orderEvents, sqlOf } from '../../support/ledger';
import { dataOf, placedOrderOf } from '../../support/partner-client';
import { SANDBOX_PHONES, STORES, TestService } from '../../support/test-service';

describe.each(STORES)('sandbox outcomes of a topup (%s store)', (store) => {
  let service: TestService;
  let key: string;

  beforeAll(async () => {
    service = await TestService.start({ store });
  });
  afterAll(async () => {
    await service.close();
  });
  beforeEach(async () => {
    ({ sandboxKey: key } = await service.createPartner('IN'));
  });

  // Through the generated client (clients/typescript): a 2xx answer's typed body, or the test fails.
  const topup = (suffix: string, idempotencyKey: string) =>
    placedOrderOf(
      service.client(key).POST('/v1/partner/topup', {
        params: { header: { 'Idempotency-Key': idempotencyKey } },
        body: { operator_id: 101, phone: SANDBOX_PHONES.IN(suffix), amount: 100, reference: `ref-${suffix}` },
      }),
    );

  const status = (orderId: string) =>
    dataOf(service.client(key).GET('/v1/partner/transactions/{order_id}', { params: { path: { order_id: orderId } } }));
  const balance = async () => (await dataOf(service.client(key).GET('/v1/partner/balance'))).available;

  it('0001 succeeds at once with an operator reference and no refund', async () => {
    const placed = await topup('0001', 'sbx-0001-a');
    expect(placed).toMatchObject({
      status: 'PENDING',
      balance_after: '900.00',
      amount_local: '100.0000',
      currency: 'INR',
      reference: 'ref-0001',
    });
    await service.settle();
    const final = await status(placed.order_id);
    expect(final).toMatchObject({ status: 'SUCCESS', refunded_at: null });
    expect(final.operator_ref).toEqual(expect.any(String));
    expect(final.settled_at).toEqual(expect.any(String));
    expect(await balance()).toBe('900.00');
  });

  it('0002 fails at once and the wallet is refunded exactly once', async () => {
    const placed = await topup('0002', 'sbx-0002-a');
    expect(placed.balance_after).toBe('900.00');
    await service.settle();
    const final = await status(placed.order_id);
    expect(final).toMatchObject({ status: 'FAILED', operator_ref: null, settled_at: null });
    expect(final.refunded_at).toEqual(expect.any(String));
    expect(await balance()).toBe('1000.00');
  });

  it('a failed order is shown FAILED only once its refund is booked: until then it is PENDING, in the list and its filters too', async () => {
    const refund = jest
      .spyOn(RefundOrderJob.prototype, 'run')
      .mockRejectedValueOnce(new Error('the database went away for a moment'));
    try {
      const placed = await topup('0002', 'sbx-0002-refund-late');
      const orderId: string = placed.order_id;
      await service.settle();
      expect(await orderEvents(service, orderId, 'TransactionFailed')).toHaveLength(1);
      expect(await orderEvents(service, orderId, 'WalletRefunded')).toHaveLength(0);
      expect(await status(orderId)).toMatchObject({ status: 'PENDING', refunded_at: null });
      const listed = async (status: 'PENDING' | 'FAILED') =>
        (
          await dataOf(
            service
              .client(key)
              .GET('/v1/partner/transactions', { params: { query: { reference: 'ref-0002', status } } }),
          )
        ).transactions.filter((order) => order.order_id === orderId);
      expect(await listed('PENDING')).toEqual([expect.objectContaining({ status: 'PENDING' })]);
      expect(await listed('FAILED')).toEqual([]);
      expect(await balance()).toBe('900.00');

      await service.advance(2_000); // the refund job's retry
      expect(await status(orderId)).toMatchObject({ status: 'FAILED', refunded_at: expect.any(String) });
      expect(await listed('FAILED')).toEqual([expect.objectContaining({ status: 'FAILED' })]);
      expect(await listed('PENDING')).toEqual([]);
      expect(await balance()).toBe('1000.00');
      expect(await orderEvents(service, orderId, 'WalletRefunded')).toHaveLength(1);
    } finally {
      refund.mockRestore();
    }
  });

  it('0003 stays PENDING for 30 seconds, then succeeds', async () => {
    const placed = await topup('0003', 'sbx-0003-a');
    await service.settle();
    expect((await status(placed.order_id)).status).toBe('PENDING');
    await service.advance(29_000);
    expect((await status(placed.order_id)).status).toBe('PENDING');
    await service.advance(1_000);
    expect(await status(placed.order_id)).toMatchObject({ status: 'SUCCESS', refunded_at: null });
    expect(await balance()).toBe('900.00');
  });

  it('0004 stays PENDING for 30 seconds, then fails with a refund', async () => {
    const placed = await topup('0004', 'sbx-0004-a');
    await service.settle();
    expect((await status(placed.order_id)).status).toBe('PENDING');
    expect(await balance()).toBe('900.00');
    await service.advance(30_000);
    expect((await status(placed.order_id)).status).toBe('FAILED');
    expect(await balance()).toBe('1000.00');
  });

  it('0005 never settles and is never refunded automatically', async () => {
    const placed = await topup('0005', 'sbx-0005-a');
    await service.settle();
    await service.advance(60 * 60_000);
    expect(await status(placed.order_id)).toMatchObject({ status: 'PENDING', refunded_at: null, settled_at: null });
    expect(await balance()).toBe('900.00');
  });

  it('a GET right after the POST sees the order and the debit', async () => {
    const placed = await topup('0003', 'sbx-ryw-01');
    expect((await status(placed.order_id)).status).toBe('PENDING');
    expect(await balance()).toBe('900.00');
  });

  const orderStream = async (orderId: string) =>
    service.app.get<EventStore>(EVENT_STORE).readStream(transactionStreamId(orderId));

  describe('an instant outcome (0001, 0002) is written with the debit', () => {
    afterEach(() => jest.restoreAllMocks());

    it('in the commit of the debit, without asking the provider or scheduling a job; the answer says PENDING, the next read SUCCESS', async () => {
      const submit = jest.spyOn(service.app.get<ProviderDirectory>(PROVIDER_DIRECTORY).sandbox(), 'submit');
      const placed = await topup('0001', 'at-placement-0001');
      expect(placed.status).toBe('PENDING');
      // The next read shows the outcome, from the read model or, before it has the order, from the log.
      expect(await status(placed.order_id)).toMatchObject({
        status: 'SUCCESS',
        operator_ref: `SBX-${placed.order_id}`,
      });
      const history = await service.app
        .get<EventsByCorrelation>(EVENTS_BY_CORRELATION)
        .readByCorrelationId(placed.order_id);
      expect(history.map((event) => event.type)).toEqual([
        'WalletDebited',
        'TransactionInitiated',
        'TransactionSettled',
      ]);
      // One commit: every event carries the position of the transaction that stored them.
      for (const event of history) expect(event.position.commit).toBe(history[0].position.commit);
      expect(history[0].data).toMatchObject({ answeredWithDebit: true });
      await service.settle();
      expect(submit.mock.calls.map(([order]) => order.orderId)).not.toContain(placed.order_id);
      expect(await status(placed.order_id)).toMatchObject({
        status: 'SUCCESS',
        operator_ref: `SBX-${placed.order_id}`,
      });
      const jobs = await sqlOf(service).query("SELECT job_id FROM jobs WHERE payload->>'orderId' = $1", [
        placed.order_id,
      ]);
      expect(jobs).toEqual([]);
    });

    it('a failure the same way, refunded once by its refund job', async () => {
      const placed = await topup('0002', 'at-placement-0002');
      // Failed in the log, not refunded yet: PENDING for the partner until the refund is booked.
      expect(await status(placed.order_id)).toMatchObject({ status: 'PENDING', refunded_at: null });
      expect((await orderStream(placed.order_id)).map((event) => event.type)).toEqual([
        'TransactionInitiated',
        'TransactionFailed',
      ]);
      await service.settle();
      expect(await status(placed.order_id)).toMatchObject({ status: 'FAILED', refunded_at: expect.any(String) });
      expect(await orderEvents(service, placed.order_id, 'WalletRefunded')).toHaveLength(1);
      expect(await balance()).toBe('1000.00');
    });

    it('a delayed outcome (0003) is submitted as before', async () => {
      const placed = await topup('0003', 'submitted-0003');
      expect(await orderStream(placed.order_id)).toEqual([]);
      await service.settle();
      expect((await orderStream(placed.order_id)).map((event) => event.type)).toEqual([
        'TransactionInitiated',
        'TransactionSubmitted',
      ]);
    });
  });

  describe('when a settlement run stops half-way', () => {
    /** Longer than the job worker's first retry delay (1 s, doubling). */
    const RETRY_AFTER_MS = 5_000;
    const loseTheNextAnswer = () =>
      jest
        .spyOn(service.app.get(OrderLifecycle), 'initiateWithAnswer')
        .mockRejectedValueOnce(new Error('connection to the event store lost'));
    // Instant outcomes submitted as a provider that must be asked would be (and as on EventStoreDB).
    beforeEach(() => {
      jest
        .spyOn(service.app.get<ProviderDirectory>(PROVIDER_DIRECTORY).sandbox(), 'answerWithoutCall')
        .mockReturnValue(null);
    });
    afterEach(() => jest.restoreAllMocks());

    it('an order answered at once is initiated and settled in one append', async () => {
      const placed = await topup('0001', 'one-append-0001');
      await service.settle();
      const stored = await orderStream(placed.order_id);
      expect(stored.map((event) => event.type)).toEqual(['TransactionInitiated', 'TransactionSettled']);
      // One append: both events carry the commit position of the transaction that stored them.
      expect(stored[1].position.commit).toBe(stored[0].position.commit);
      const [debit] = await orderEvents(service, placed.order_id, 'WalletDebited');
      expect(debit.data).not.toHaveProperty('answeredWithDebit');
    });

    it('a run that stops after the provider answered, before storing it, is retried: the order is in doubt, the provider is asked again with the same order id and the order settles once', async () => {
      const provider = service.app.get<ProviderDirectory>(PROVIDER_DIRECTORY).sandbox();
      const submit = jest.spyOn(provider, 'submit');
      loseTheNextAnswer();
      const orderId = (await topup('0001', 'lost-answer-0001')).order_id;
      await service.settle();
      expect(await orderStream(orderId)).toEqual([]);
      expect((await status(orderId)).status).toBe('PENDING');

      await service.advance(RETRY_AFTER_MS);
      expect(submit.mock.calls.map(([order]) => order.orderId)).toEqual([orderId, orderId]);
      expect(submit.mock.calls[1][0]).toMatchObject({ resubmission: true, inDoubtSince: expect.any(String) });
      expect((await orderStream(orderId)).map((event) => event.type)).toEqual([
        'TransactionInitiated',
        'TransactionAttemptInDoubt',
        'TransactionSettled',
      ]);
      expect(await status(orderId)).toMatchObject({ status: 'SUCCESS', refunded_at: null });
      expect(await balance()).toBe('900.00');
    });

    it('a failed answer lost the same way is asked again and refunded exactly once', async () => {
      loseTheNextAnswer();
      const orderId = (await topup('0002', 'lost-answer-0002')).order_id;
      await service.settle();
      expect(await balance()).toBe('900.00');
      await service.advance(RETRY_AFTER_MS);
      expect((await status(orderId)).status).toBe('FAILED');
      expect(await orderEvents(service, orderId, 'WalletRefunded')).toHaveLength(1);
      expect(await balance()).toBe('1000.00');
    });
  });

  it('leaves the money invariants intact', async () => {
    await service.settle();
    const report = await service.verify();
    expect(report.body).toMatchObject({ ok: true, breaches: [] });
  });
});
