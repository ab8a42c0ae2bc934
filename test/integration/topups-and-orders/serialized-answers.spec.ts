import { QueryBus } from '@nestjs/cqrs';
import { GetBalance, WalletBalance } from '../../../src/application/wallets/get-balance';
import { GetTransaction } from '../../../src/application/orders/get-transaction';
import { StoredOrderView } from '../../../src/application/ports/read-models.port';
import { InitiatedOrder } from '../../../src/domain/transaction/order-view';
import { CompiledOrderAnswers } from '../../../src/interface/http/partner/compiled-order-answers';
import {
  dryRunResource,
  orderResource,
  transactionStatusResource,
} from '../../../src/interface/shared/order-resources';
import { balanceResource } from '../../../src/interface/shared/balance-resources';
import { expectSentAsProduced } from '../../support/sent-as-produced';
import { HttpAnswer, SANDBOX_PHONES, STORES, TestService } from '../../support/test-service';
import { SERVICE_START_TIMEOUT_MS } from '../../support/timeouts';

const BESCOM = 1005;

/**
 * The hot 200 answers are written by serializers compiled from their published schemas, which drop
 * what the schema lacks and coerce what it types differently. Each shape these routes answer is
 * compared with what the application produced for it.
 */
describe.each(STORES)('answers serialized from their schemas (%s store)', (store) => {
  let service: TestService;
  let key: string;
  let counter = 0;
  const placed = jest.spyOn(CompiledOrderAnswers.prototype, 'placed');
  const dryRun = jest.spyOn(CompiledOrderAnswers.prototype, 'dryRun');
  const queried = jest.spyOn(QueryBus.prototype, 'execute');

  beforeAll(async () => {
    service = await TestService.start({ store });
  }, SERVICE_START_TIMEOUT_MS);
  afterAll(async () => {
    await service.close();
    jest.restoreAllMocks();
  });
  beforeEach(async () => {
    ({ sandboxKey: key } = await service.createPartner('IN'));
    jest.clearAllMocks();
  });

  const idempotencyKey = () => `serialized-${++counter}-${Date.now()}`;
  const ok = (answer: HttpAnswer): HttpAnswer => {
    if (answer.status !== 200) throw new Error(`expected 200, got ${answer.status} ${answer.text}`);
    return answer;
  };

  /** The object the last query of this type produced (what the controller handed to Fastify). */
  const lastProducedBy = async (queryType: new (...args: never[]) => object): Promise<unknown> => {
    const calls = queried.mock.calls.map(([query]: unknown[]) => query);
    const index = calls.map((query) => query instanceof queryType).lastIndexOf(true);
    expect(index).toBeGreaterThanOrEqual(0);
    return await (queried.mock.results[index]?.value as Promise<unknown>);
  };

  /** An order answer: the body is the compiled writer's output, and that output carries all of the order's resource. */
  const expectOrderAnswer = (answer: HttpAnswer, writer: jest.SpyInstance): void => {
    expect(writer).toHaveBeenCalledTimes(1);
    const [order] = writer.mock.calls[0] as [InitiatedOrder];
    expect(answer.text).toBe(writer.mock.results[0]?.value);
    expectSentAsProduced(answer.text, writer === placed ? orderResource(order) : dryRunResource(order));
  };

  const topup = (body: Record<string, unknown>, idempotency = idempotencyKey()) =>
    service.partner('POST', '/topup', key, body, { 'idempotency-key': idempotency });
  const payBill = (body: Record<string, unknown>) =>
    service.partner('POST', '/pay-bill', key, body, { 'idempotency-key': idempotencyKey() });
  const transaction = async (orderId: string): Promise<void> => {
    queried.mockClear();
    const answer = ok(await service.partner('GET', `/transactions/${orderId}`, key));
    expectSentAsProduced(
      answer.text,
      transactionStatusResource((await lastProducedBy(GetTransaction)) as StoredOrderView),
    );
  };
  const balance = async (): Promise<void> => {
    queried.mockClear();
    const answer = ok(await service.partner('GET', '/balance', key));
    const query = queried.mock.calls.map(([sent]: unknown[]) => sent).find((sent) => sent instanceof GetBalance);
    if (!(query instanceof GetBalance)) throw new Error('GET /balance ran no GetBalance');
    expectSentAsProduced(
      answer.text,
      balanceResource(query.caller, (await lastProducedBy(GetBalance)) as WalletBalance),
    );
  };

  it.each([
    ['with a reference', { reference: 'ref-serialized' }],
    ['without a reference', {}],
  ])('POST /topup answers the placed Order %s, and its replay is the same bytes', async (_, extra) => {
    const request = { operator_id: 101, phone: SANDBOX_PHONES.IN('0001'), amount: 100, ...extra };
    const first = ok(await topup(request, 'serialized-replayed-' + String(++counter)));
    expectOrderAnswer(first, placed);
    const replay = ok(await topup(request, 'serialized-replayed-' + String(counter)));
    expect(replay.headers.get('idempotent-replay')).toBe('true');
    expect(replay.text).toBe(first.text);
  });

  it.each([
    ['with a reference', { reference: 'ref-dry' }],
    ['without a reference', {}],
  ])('POST /topup with validate_only answers the TopupDryRun %s', async (_, extra) => {
    const request = { operator_id: 101, phone: SANDBOX_PHONES.IN('0001'), amount: 100, validate_only: true, ...extra };
    const answer = ok(await topup(request));
    expectOrderAnswer(answer, dryRun);
    expect(answer.body).toMatchObject({ validate_only: true });
  });

  it('POST /pay-bill answers the placed Order and the BillPaymentDryRun', async () => {
    ok(await service.partner('POST', '/bill-info', key, { biller_id: BESCOM, consumer_number: '1234560001' }));
    const bill = { biller_id: BESCOM, consumer_number: '1234560001', amount: 500 };
    expectOrderAnswer(ok(await payBill({ ...bill, validate_only: true })), dryRun);
    const paid = ok(await payBill({ ...bill, reference: 'electricity' }));
    expectOrderAnswer(paid, placed);
    expect(paid.body).toMatchObject({ biller_id: BESCOM, consumer_number: '1234560001' });
  });

  it('GET /transactions/{id} answers PENDING, SUCCESS and FAILED, for topups and bill payments, with and without a reference', async () => {
    const success = ok(await topup({ operator_id: 101, phone: SANDBOX_PHONES.IN('0001'), amount: 10 }));
    const failed = ok(await topup({ operator_id: 101, phone: SANDBOX_PHONES.IN('0002'), amount: 10, reference: 'r' }));
    const pending = ok(await topup({ operator_id: 101, phone: SANDBOX_PHONES.IN('0005'), amount: 10, reference: 'p' }));
    ok(await service.partner('POST', '/bill-info', key, { biller_id: BESCOM, consumer_number: '1234560001' }));
    const bill = ok(await payBill({ biller_id: BESCOM, consumer_number: '1234560001', amount: 500 }));
    const orders = [success, failed, pending, bill].map((answer) => answer.body.order_id as string);
    for (const orderId of orders) await transaction(orderId);
    await service.settle();
    const statuses: string[] = [];
    for (const orderId of orders) {
      await transaction(orderId);
      statuses.push((await service.partner('GET', `/transactions/${orderId}`, key)).body.status as string);
    }
    expect(statuses).toEqual(['SUCCESS', 'FAILED', 'PENDING', 'SUCCESS']);
  });

  it('GET /balance answers before any order and after one', async () => {
    await balance();
    ok(await topup({ operator_id: 101, phone: SANDBOX_PHONES.IN('0001'), amount: 100 }));
    await balance();
  });

  it('the Error bodies of these routes keep their own serialization', async () => {
    const missing = await service.partner('GET', '/transactions/ord_missing', key);
    expect({ status: missing.status, body: missing.body }).toEqual({
      status: 404,
      body: { error: 'not_found', detail: expect.any(String) },
    });
    const refused = await topup({ operator_id: 101, phone: SANDBOX_PHONES.IN('0001'), amount: 1_000_000 });
    expect({ status: refused.status, body: refused.body }).toEqual({
      status: 422,
      body: { error: 'amount_out_of_range', detail: expect.any(String) },
    });
  });
});
