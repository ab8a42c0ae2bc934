import { ManualClock } from '../../support/manual-clock';
import { expectRefusal } from '../../support/error-assertions';
import { orderEvents } from '../../support/ledger';
import { liveWalletPartner, setRoute } from '../../support/live-provider';
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

const TEST_TIMEOUT_MS = 2 * SERVICE_START_TIMEOUT_MS;

/**
 * Answers of Setu that decide nothing about a payment, through the whole service (the Setu simulator on the
 * service's clock): an HTML page with 200 leaves the order in doubt, a 429 is sent again after its Retry-After, an
 * expired token is replaced, and a biller that charges a convenience fee is neither routed nor paid
 * (docs/decisions/0121-setu-absence-and-answers.md, 0122-setu-convenience-fee.md).
 */
describe('live bill payments through Setu meeting answers that decide nothing (postgres store)', () => {
  let upstream: SetuUpstream;
  let database: TestDatabase;
  let service: TestService;
  let liveKey = '';
  const clock = new ManualClock(new Date());

  const view = async (orderId: string) => (await service.partner('GET', `/transactions/${orderId}`, liveKey)).body;
  const balance = async () => (await service.partner('GET', '/balance', liveKey)).body.available as string;
  const events = (orderId: string, type: string) => orderEvents(service, orderId, type);
  const pay = async (consumer: string, amount: number, key: string, billerId = 1005) => {
    expect((await billInfo(service, liveKey, consumer, billerId)).status).toBe(200);
    const paid = await payBill(service, liveKey, consumer, amount, key, billerId);
    expect(paid.status).toBe(200);
    await service.settle();
    return paid.body.order_id as string;
  };

  beforeAll(async () => {
    upstream = await startSetuUpstream({
      settleAfterMs: 60_000,
      retryAfterSeconds: 30,
      now: () => clock.now().getTime(),
    });
    database = await createTestDatabase('live-setu-answers');
    service = await TestService.start({
      store: 'postgres',
      databaseUrl: database.connectionString,
      clock,
      env: { ...upstream.env, PROVIDER_TIMEOUT_MS: '1000' },
    });
    await routeBillsToSetu(service);
    ({ liveKey } = await liveWalletPartner(service, 'IN', '10000.00'));
  }, SERVICE_START_TIMEOUT_MS);
  afterAll(async () => {
    await service?.close();
    await database?.drop();
    await upstream?.close();
  });

  it(
    'a payment answered 200 with an HTML page is in doubt, neither refused nor sent again: the look-up finds it and it settles',
    async () => {
      const orderId = await pay(bescom('0015'), 500, 'answers-html');
      expect((await view(orderId)).status).toBe('PENDING');
      expect(await events(orderId, 'TransactionAttemptInDoubt')).toEqual([
        expect.objectContaining({
          data: expect.objectContaining({ reason: expect.stringContaining("not Setu's answer envelope") }),
        }),
      ]);
      await service.advance(5_000); // the retried submission looks the payment up before anything else
      await service.advance(60_000);
      expect(await view(orderId)).toMatchObject({ status: 'SUCCESS' });
      expect(setuSubmissionsOf(upstream, orderId)).toHaveLength(1);
      expect(await events(orderId, 'WalletRefunded')).toHaveLength(0);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'a payment request answered 429 is sent again after its Retry-After, not before, without putting the order in doubt',
    async () => {
      const orderId = await pay(bescom('0014'), 500, 'answers-429');
      expect(setuSubmissionsOf(upstream, orderId).map((submission) => submission.answer)).toEqual([429]);
      expect(await events(orderId, 'TransactionAttemptNotSent')).toHaveLength(1);
      await service.advance(29_000);
      expect(setuSubmissionsOf(upstream, orderId)).toHaveLength(1);
      await service.advance(1_000);
      expect(setuSubmissionsOf(upstream, orderId).map((submission) => submission.answer)).toEqual([429, 200]);
      await service.advance(60_000);
      expect(await view(orderId)).toMatchObject({ status: 'SUCCESS' });
      expect(await events(orderId, 'TransactionAttemptInDoubt')).toHaveLength(0);
      expect(setuPaymentsOf(upstream, orderId)).toHaveLength(1);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'a token Setu has expired is replaced and the request made once more',
    async () => {
      const issued = upstream.simulator.state.tokensIssued;
      upstream.simulator.state.expireTokens();
      expect((await billInfo(service, liveKey, bescom('0001'))).body).toMatchObject({ amount: '500.00' });
      expect(upstream.simulator.state.tokensIssued).toBe(issued + 1);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'a Setu biller that charges a convenience fee: no route proposed or set by hand, no bill shown, and an order not sent',
    async () => {
      const engineer = await service.operatorToken('ops-alice', 'engineer');
      const sync = await service.adminAs(engineer, 'POST', '/providers/setu/sync', {});
      expect(sync.status).toBe(200);
      expect(sync.body.not_offered).toContainEqual(
        expect.objectContaining({
          kind: 'biller',
          id: 1011,
          upstream_id: 'ADAN00000MUM01',
          reason: expect.stringContaining('convenience fee'),
        }),
      );
      expect(sync.body.proposed).not.toContainEqual(expect.objectContaining({ id: 1011 }));
      const routed = await setRoute(service, {
        kind: 'biller',
        id: 1011,
        provider: 'setu',
        upstream_id: 'ADAN00000MUM01',
      });
      expectRefusal(routed, 409, 'invalid_state');
      expect(routed.body.detail).toContain('charges a customer convenience fee');

      // BSES Rajdhani starts charging a fee between the partner's bill-info and its payment.
      const before = await balance();
      const consumer = '123450001';
      expect((await billInfo(service, liveKey, consumer, 1008)).status).toBe(200);
      upstream.simulator.state.customerFees.set('BSESRAJ00DEL01', 100);
      const paid = await payBill(service, liveKey, consumer, 500, 'answers-fee', 1008);
      expect(paid.status).toBe(200);
      await service.settle();
      const orderId = paid.body.order_id as string;
      expect(await view(orderId)).toMatchObject({ status: 'FAILED', refunded_at: expect.any(String) });
      expect(await events(orderId, 'TransactionFailed')).toEqual([
        expect.objectContaining({ data: expect.objectContaining({ basis: 'not_sent' }) }),
      ]);
      expect(setuPaymentsOf(upstream, orderId)).toHaveLength(0);
      expect(await events(orderId, 'WalletRefunded')).toHaveLength(1);
      expect(await balance()).toBe(before);
      const refetched = await billInfo(service, liveKey, consumer, 1008);
      expectRefusal(refetched, 409, 'invalid_state');
      expect(refetched.body.detail).toContain('convenience fee');
    },
    TEST_TIMEOUT_MS,
  );
});
