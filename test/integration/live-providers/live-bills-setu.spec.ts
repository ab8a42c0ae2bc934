import { ManualClock } from '../../support/manual-clock';
import { SETU_POLL_AFTER_MS } from '../../../src/infrastructure/providers/setu/setu-provider';
import { expectRefusal } from '../../support/error-assertions';
import { orderEvents } from '../../support/ledger';
import { liveWalletPartner } from '../../support/live-provider';
import { TestDatabase, createTestDatabase } from '../../support/postgres-test-database';
import {
  SetuUpstream,
  bescom,
  billInfo,
  payBill,
  routeBillsToSetu,
  setuPaymentsOf,
  setuSubmissionsOf,
  startSetuUpstream,
} from '../../support/setu-upstream';
import { TestService } from '../../support/test-service';
import { SERVICE_START_TIMEOUT_MS } from '../../support/timeouts';

const PROVIDER_TIMEOUT_MS = 1_000;
const TEST_TIMEOUT_MS = 3 * SERVICE_START_TIMEOUT_MS;

/**
 * Live bill payment through Setu's BBPS BillPay protocol (the Setu simulator over HTTP): a
 * KYC-approved partner fetches a bill and pays it, and the service stops and starts again on the
 * same database in the middle of every case: nothing is lost, nothing is paid twice upstream, a
 * BBPS failure is refunded once, and a bill with nothing due moves no money.
 */
describe('live bill payment through Setu, with a service restart in the middle (postgres store)', () => {
  let upstream: SetuUpstream;
  let database: TestDatabase;
  let service: TestService | null = null;
  let liveKey = '';
  const clock = new ManualClock(new Date());

  const start = async () => {
    const started = await TestService.start({
      store: 'postgres',
      databaseUrl: database.connectionString,
      clock,
      env: { ...upstream.env, PROVIDER_TIMEOUT_MS: String(PROVIDER_TIMEOUT_MS) },
    });
    await routeBillsToSetu(started);
    return started;
  };
  const restart = async () => {
    await service?.close();
    service = null;
    service = await start();
    return service;
  };
  const view = async (orderId: string) => (await service!.partner('GET', `/transactions/${orderId}`, liveKey)).body;
  const balance = async () => (await service!.partner('GET', '/balance', liveKey)).body.available as string;

  beforeAll(async () => {
    upstream = await startSetuUpstream({ listLagMs: 600_000 });
    database = await createTestDatabase('live-setu');
    service = await start();
    ({ liveKey } = await liveWalletPartner(service, 'IN', '10000.00'));
  }, SERVICE_START_TIMEOUT_MS);
  afterAll(async () => {
    await service?.close();
    await database?.drop();
    await upstream?.close();
  });

  it(
    'bill-info returns the fetched amount and bill reference; pay-bill within 1 unit goes PENDING, then SUCCESS with the BBPS transaction id',
    async () => {
      // Delhi Jal Board (biller 1017), whose Setu entry takes the exact amount or above.
      const consumer = bescom('0001');
      const info = await billInfo(service!, liveKey, consumer, 1017);
      expect(info.status).toBe(200);
      expect(info.body).toMatchObject({
        biller_id: 1017,
        consumer_number: consumer,
        customer_name: 'Asha Verma',
        amount: '500.00',
        currency: 'INR',
        due_date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
        bill_period: expect.stringMatching(/^\d{4}-\d{2}$/),
        bill_reference: expect.stringMatching(/^BILL/),
      });
      await restart();
      expect(await balance()).toBe('10000.00');
      const paid = await payBill(service!, liveKey, consumer, 500.4, 'setu-pay-0001', 1017);
      expect(paid.status).toBe(200);
      expect(paid.body).toMatchObject({ status: 'PENDING', amount_local: '500.4000', biller_id: 1017 });
      const orderId = paid.body.order_id as string;
      await service!.settle();
      expect((await view(orderId)).status).toBe('PENDING');
      expect(setuPaymentsOf(upstream, orderId)).toEqual([
        expect.objectContaining({ amountPaise: 50_040, billerId: 'DJB000000DEL01', status: 'Processing' }),
      ]);

      await restart();
      await service!.advance(SETU_POLL_AFTER_MS);
      const settled = await view(orderId);
      expect(settled).toMatchObject({
        status: 'SUCCESS',
        operator_ref: setuPaymentsOf(upstream, orderId)[0].transactionId,
      });
      expect(setuPaymentsOf(upstream, orderId)).toHaveLength(1);
      expect(setuSubmissionsOf(upstream, orderId)).toHaveLength(1);
      expect(await balance()).toBe('9499.60');
      expect(await orderEvents(service!, orderId, 'WalletRefunded')).toHaveLength(0);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'a BBPS failure is refunded once, across a restart',
    async () => {
      expect((await billInfo(service!, liveKey, bescom('0002'))).body.amount).toBe('1500.00');
      const before = await balance();
      const paid = await payBill(service!, liveKey, bescom('0002'), 1500, 'setu-pay-0002');
      const orderId = paid.body.order_id as string;
      await service!.settle();
      await restart();
      await service!.advance(SETU_POLL_AFTER_MS);
      await service!.advance(SETU_POLL_AFTER_MS);
      expect(await view(orderId)).toMatchObject({ status: 'FAILED', refunded_at: expect.any(String) });
      expect(await orderEvents(service!, orderId, 'WalletRefunded')).toHaveLength(1);
      expect(await balance()).toBe(before);
      expect(setuPaymentsOf(upstream, orderId)).toEqual([expect.objectContaining({ status: 'Failure' })]);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'an attempt whose answer is lost is looked up after the restart and paid once, nothing sent again',
    async () => {
      await billInfo(service!, liveKey, bescom('0007'));
      const paid = await payBill(service!, liveKey, bescom('0007'), 500, 'setu-pay-0007');
      const orderId = paid.body.order_id as string;
      await service!.settle(); // the payment is recorded upstream; its answer never comes
      expect(setuPaymentsOf(upstream, orderId)).toHaveLength(1);
      expect((await view(orderId)).status).toBe('PENDING');
      await restart();
      await service!.advance(5_000); // the submission's retry: the transactions list shows the payment
      await service!.advance(SETU_POLL_AFTER_MS);
      expect(await view(orderId)).toMatchObject({
        status: 'SUCCESS',
        operator_ref: setuPaymentsOf(upstream, orderId)[0].transactionId,
      });
      expect(setuPaymentsOf(upstream, orderId)).toHaveLength(1);
      expect(setuSubmissionsOf(upstream, orderId)).toHaveLength(1);
      expect(await orderEvents(service!, orderId, 'TransactionSettled')).toHaveLength(1);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'a lost answer the list does not show yet: the retry after the restart gets 409 duplicate, looks the payment up, pays once',
    async () => {
      await billInfo(service!, liveKey, bescom('0011'));
      const paid = await payBill(service!, liveKey, bescom('0011'), 500, 'setu-pay-0011');
      const orderId = paid.body.order_id as string;
      await service!.settle();
      await restart();
      await service!.advance(5_000);
      expect(await view(orderId)).toMatchObject({
        status: 'SUCCESS',
        operator_ref: setuPaymentsOf(upstream, orderId)[0].transactionId,
      });
      expect(setuPaymentsOf(upstream, orderId)).toHaveLength(1);
      expect(setuSubmissionsOf(upstream, orderId).map((submission) => submission.answer)).toEqual([0, 409]);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    '"no bill due" is 422 amount_out_of_range and moves nothing; nor does a payment away from the bill by more than 1 unit',
    async () => {
      const before = await balance();
      expectRefusal(await billInfo(service!, liveKey, bescom('0004')), 422, 'amount_out_of_range', 'nothing is due');
      await restart();
      // Nothing was remembered: pay-bill still needs a bill.
      expectRefusal(
        await payBill(service!, liveKey, bescom('0004'), 500, 'setu-pay-0004'),
        400,
        'validation_failed',
        'consumer_number',
      );
      expect((await billInfo(service!, liveKey, bescom('0013'))).body).toMatchObject({ amount: '2400.00' });
      await restart();
      expectRefusal(
        await payBill(service!, liveKey, bescom('0013'), 2398.99, 'setu-pay-0013-low'),
        422,
        'amount_out_of_range',
        'amount',
      );
      expectRefusal(await billInfo(service!, liveKey, bescom('0005')), 404, 'not_found');
      expect(await balance()).toBe(before);
      const consumers = new Set([bescom('0004'), bescom('0013'), bescom('0005')]);
      expect(upstream.simulator.state.payments.filter((payment) => consumers.has(payment.consumerNumber))).toEqual([]);
      expect((await service!.verify()).body).toMatchObject({ ok: true, breaches: [] });
    },
    TEST_TIMEOUT_MS,
  );
});
