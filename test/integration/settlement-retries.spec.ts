import { PROVIDER_DIRECTORY, ProviderDirectory } from '../../src/application/ports/provider-gateway.port';
import { OrderLifecycle } from '../../src/application/process-managers/order-lifecycle';
import { EVENT_STORE } from '../../src/application/ports/event-store.port';
import { EventStore } from '../../src/application/ports/event-store.port';
import { transactionStreamId } from '../../src/domain/transaction/transaction.events';
import { orderEvents } from '../support/ledger';
import { SANDBOX_PHONES, STORES, TestService } from '../support/test-service';

/** Longer than the job worker's first retry delay (1 s, doubling). */
const RETRY_AFTER_MS = 5_000;

describe.each(STORES)('settling an order when a run stops half-way (%s store)', (store) => {
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
  afterEach(() => jest.restoreAllMocks());

  const topup = async (suffix: string, idempotencyKey: string): Promise<string> => {
    const placed = await service.topup(key, { operator_id: 101, phone: SANDBOX_PHONES.IN(suffix), amount: 100 }, idempotencyKey);
    expect(placed.status).toBe(200);
    return placed.body.order_id;
  };
  const partnerView = async (orderId: string) => (await service.partner('GET', `/transactions/${orderId}`, key)).body;
  const balance = async () => (await service.partner('GET', '/balance', key)).body.available;
  const orderStream = async (orderId: string) => (await service.app.get<EventStore>(EVENT_STORE).readStream(transactionStreamId(orderId))).map((event) => event.type);

  it('an order answered at once is initiated and settled in one append', async () => {
    const orderId = await topup('0001', 'one-append-0001');
    await service.settle();
    const stored = await service.app.get<EventStore>(EVENT_STORE).readStream(transactionStreamId(orderId));
    expect(stored.map((event) => event.type)).toEqual(['TransactionInitiated', 'TransactionSettled']);
    expect(stored[0].position).not.toBeNull();
    // One append: both events carry the same commit position (the transaction that stored them).
    expect(stored[1].position?.commit).toBe(stored[0].position?.commit);
  });

  it('a run that stops after the provider answered, before storing it, is retried: the provider is asked again with the same order id and the order settles once', async () => {
    const provider = service.app.get<ProviderDirectory>(PROVIDER_DIRECTORY).forEnvironment('sandbox')!;
    const submit = jest.spyOn(provider, 'submit');
    jest.spyOn(service.app.get(OrderLifecycle), 'initiateWithAnswer').mockRejectedValueOnce(new Error('connection to the event store lost'));
    const orderId = await topup('0001', 'lost-answer-0001');
    await service.settle();
    expect(await orderStream(orderId)).toEqual([]);
    expect((await partnerView(orderId)).status).toBe('PENDING');

    await service.advance(RETRY_AFTER_MS);
    expect(submit.mock.calls.map(([order]) => order.orderId)).toEqual([orderId, orderId]);
    expect(await orderStream(orderId)).toEqual(['TransactionInitiated', 'TransactionSettled']);
    expect((await partnerView(orderId)).status).toBe('SUCCESS');
    expect(await orderEvents(service, orderId, 'WalletRefunded')).toHaveLength(0);
    expect(await balance()).toBe('900.00');
  });

  it('a failed answer lost the same way is asked again and refunded exactly once', async () => {
    jest.spyOn(service.app.get(OrderLifecycle), 'initiateWithAnswer').mockRejectedValueOnce(new Error('connection to the event store lost'));
    const orderId = await topup('0002', 'lost-answer-0002');
    await service.settle();
    expect(await balance()).toBe('900.00');
    await service.advance(RETRY_AFTER_MS);
    expect((await partnerView(orderId)).status).toBe('FAILED');
    expect(await orderEvents(service, orderId, 'WalletRefunded')).toHaveLength(1);
    expect(await balance()).toBe('1000.00');
  });
});
