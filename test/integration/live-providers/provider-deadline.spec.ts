import { SandboxProvider } from '../../../src/infrastructure/providers/sandbox/sandbox-provider';
import { expectRefusal } from '../../support/error-assertions';
import { orderEvents, sqlOf } from '../../support/ledger';
import { SANDBOX_PHONES, STORES, TestService } from '../../support/test-service';
import { SERVICE_START_TIMEOUT_MS } from '../../support/timeouts';

const PROVIDER_TIMEOUT_MS = 200;
const FIRST_RETRY_MS = 2_000;

/** A provider call that never answers, and the signal it was given. */
function silentCall(): { call: () => Promise<never>; signals: AbortSignal[] } {
  const signals: AbortSignal[] = [];
  return {
    signals,
    call: (...args: unknown[]) => {
      const signal = args.find((arg): arg is AbortSignal => arg instanceof AbortSignal);
      if (signal) signals.push(signal);
      return new Promise<never>(() => undefined);
    },
  };
}

describe.each(STORES)('a provider that does not answer in time (%s store)', (store) => {
  let service: TestService;
  let key: string;

  beforeAll(async () => {
    service = await TestService.start({ store, env: { PROVIDER_TIMEOUT_MS: String(PROVIDER_TIMEOUT_MS) } });
  }, SERVICE_START_TIMEOUT_MS);
  afterAll(async () => {
    await service.close();
  });
  beforeEach(async () => {
    ({ sandboxKey: key } = await service.createPartner('IN'));
    // Every order here is submitted, as one a provider must be asked about would be (not answered at placement).
    jest.spyOn(SandboxProvider.prototype, 'answerWithoutCall').mockReturnValue(null);
  });
  afterEach(() => {
    jest.restoreAllMocks();
  });

  const job = async (jobId: string) =>
    (
      await sqlOf(service).query<{ done: boolean; attempts: number; last_error: string | null }>(
        `SELECT done_at IS NOT NULL AS done, attempts, last_error FROM jobs WHERE job_id = $1`,
        [jobId],
      )
    )[0];
  const balance = async () => (await service.partner('GET', '/balance', key)).body.available;

  it('a submission left unanswered fails at the deadline, its call is aborted, and the order is submitted again with the same id and settled once', async () => {
    const silent = silentCall();
    const submit = jest.spyOn(SandboxProvider.prototype, 'submit').mockImplementationOnce(silent.call);
    const placed = await service.topup(
      key,
      { operator_id: 101, phone: SANDBOX_PHONES.IN('0001'), amount: 100 },
      'silent-provider-0001',
    );
    expect(placed.status).toBe(200);
    const orderId: string = placed.body.order_id;

    await service.settle();
    expect(silent.signals).toHaveLength(1);
    expect(silent.signals[0].aborted).toBe(true);
    const failed = await job(`submit-order:${orderId}`);
    expect(failed).toMatchObject({ done: false, attempts: 1 });
    expect(failed.last_error).toContain(
      `the provider did not answer within ${PROVIDER_TIMEOUT_MS} ms (submitting order ${orderId})`,
    );
    expect(await orderEvents(service, orderId, 'TransactionInitiated')).toHaveLength(1);
    expect(await orderEvents(service, orderId, 'TransactionSettled')).toHaveLength(0);
    // Nothing is known about the call's effect, so the order can still be held if the provider stays silent.
    expect(await job(`hold-stuck-order:${orderId}`)).toMatchObject({ done: false });
    expect((await service.partner('GET', `/transactions/${orderId}`, key)).body.status).toBe('PENDING');

    await service.advance(FIRST_RETRY_MS);
    expect(submit.mock.calls.map(([order]) => order.orderId)).toEqual([orderId, orderId]);
    expect((await service.partner('GET', `/transactions/${orderId}`, key)).body.status).toBe('SUCCESS');
    expect(await orderEvents(service, orderId, 'TransactionSettled')).toHaveLength(1);
    expect(await orderEvents(service, orderId, 'WalletRefunded')).toHaveLength(0);
    expect(await job(`submit-order:${orderId}`)).toMatchObject({ done: true, attempts: 2 });
    expect(await job(`hold-stuck-order:${orderId}`)).toMatchObject({ done: true, attempts: 0 });
    expect(await balance()).toBe('900.00');
  });

  it('a poll left unanswered is asked again later; the late order still settles once', async () => {
    const silent = silentCall();
    const poll = jest.spyOn(SandboxProvider.prototype, 'poll').mockImplementationOnce(silent.call);
    const placed = await service.topup(
      key,
      { operator_id: 101, phone: SANDBOX_PHONES.IN('0003'), amount: 100 },
      'silent-poll-0003',
    );
    const orderId: string = placed.body.order_id;
    await service.settle();

    await service.advance(30_000); // the sandbox's delayed answer for 0003: the first poll goes unanswered
    expect(silent.signals.map((signal) => signal.aborted)).toEqual([true]);
    expect((await service.partner('GET', `/transactions/${orderId}`, key)).body.status).toBe('PENDING');

    await service.advance(FIRST_RETRY_MS);
    expect(poll.mock.calls.length).toBe(2);
    expect((await service.partner('GET', `/transactions/${orderId}`, key)).body.status).toBe('SUCCESS');
    expect(await orderEvents(service, orderId, 'TransactionSettled')).toHaveLength(1);
    expect(await balance()).toBe('900.00');
  });

  it('a bill fetch left unanswered gets 503 provider_unavailable with the Error body, and no bill is kept to pay', async () => {
    jest.spyOn(SandboxProvider.prototype, 'fetchBill').mockImplementationOnce(silentCall().call);
    const fetched = await service.partner('POST', '/bill-info', key, {
      biller_id: 1005,
      consumer_number: '1234560001',
    });
    expectRefusal(fetched, 503, 'provider_unavailable');
    // The deadline and the provider's words are in the log, not in the partner's detail.
    expect(fetched.body.detail).toBe(
      'Bangalore Electricity Supply Company (BESCOM) could not be asked for the bill at the moment; retry later',
    );

    const paid = await service.partner(
      'POST',
      '/pay-bill',
      key,
      { biller_id: 1005, consumer_number: '1234560001', amount: 10 },
      { 'idempotency-key': 'unfetched-bill-01' },
    );
    expectRefusal(paid, 400, 'validation_failed', 'consumer_number');
    expect(await balance()).toBe('1000.00');
  });

  it('answers in time pass through unchanged: a settled order, a fetched bill', async () => {
    const placed = await service.topup(
      key,
      { operator_id: 101, phone: SANDBOX_PHONES.IN('0002'), amount: 100 },
      'prompt-provider-0002',
    );
    await service.settle();
    expect((await service.partner('GET', `/transactions/${placed.body.order_id}`, key)).body.status).toBe('FAILED');
    expect(await balance()).toBe('1000.00');
    const fetched = await service.partner('POST', '/bill-info', key, {
      biller_id: 1005,
      consumer_number: '1234560001',
    });
    expect(fetched.status).toBe(200);
  });
});
