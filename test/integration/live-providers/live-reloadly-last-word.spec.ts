import { BILL_FETCH_STORE, BillFetchStore } from '../../../src/application/ports/bill-fetch-store.port';
import { ManualClock } from '../../support/manual-clock';
import { RELOADLY_DELIVERY_HORIZON_MS } from '../../../src/infrastructure/providers/reloadly/reloadly-horizons';
import { SimulatorOptions } from '../../../tools/provider-sim/simulator';
import { orderEvents } from '../../support/ledger';
import {
  LiveUpstream,
  liveWalletPartner,
  routeToSimulator,
  startLiveUpstream,
  submissionsOf,
  transactionsOf,
} from '../../support/live-provider';
import { ServicesOnOneDatabase } from '../../support/services-on-one-database';
import { TestService } from '../../support/test-service';
import { SERVICE_START_TIMEOUT_MS } from '../../support/timeouts';

const PROVIDER_TIMEOUT_MS = 1_000;
const FIRST_RETRY_MS = 2_000;
const STUCK_AFTER_MS = 60_000;
const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

/**
 * Live Reloadly orders followed to Reloadly's last word (docs/decisions/0117-held-orders-followed.md, 0120), through the
 * service against the simulator on the service's manual clock.
 */
describe('live Reloadly orders followed to Reloadly’s last word (simulator on the service’s clock, postgres store)', () => {
  let upstream: LiveUpstream | null = null;
  let services: ServicesOnOneDatabase | null = null;
  let clock: ManualClock;

  afterEach(async () => {
    await services?.close();
    await upstream?.close();
    services = null;
    upstream = null;
  });

  const start = async (): Promise<TestService> => {
    const service = await services!.start({
      clock,
      env: {
        ...upstream!.env,
        PROVIDER_TIMEOUT_MS: String(PROVIDER_TIMEOUT_MS),
        STUCK_ORDER_AFTER_SECONDS: String(STUCK_AFTER_MS / 1000),
      },
    });
    await routeToSimulator(service);
    return service;
  };
  const begin = async (options: SimulatorOptions = {}): Promise<TestService> => {
    clock = new ManualClock(new Date());
    upstream = await startLiveUpstream({ hangMs: 3_000, now: () => clock.now().getTime(), ...options });
    services = await ServicesOnOneDatabase.create('last-word');
    return start();
  };
  const restart = async (service: TestService): Promise<TestService> => {
    await services!.stop(service);
    return start();
  };

  let line = 0;
  const phone = (suffix: string) => `+9196${String(++line).padStart(4, '0')}${suffix}`;
  const place = async (service: TestService, liveKey: string, suffix: string): Promise<string> => {
    const placed = await service.topup(
      liveKey,
      { operator_id: 101, phone: phone(suffix), amount: 199 },
      `last-word-${suffix}-${line}`,
    );
    expect(placed.status).toBe(200);
    return placed.body.order_id as string;
  };
  const payBill = async (service: TestService, partnerId: string, liveKey: string, consumerNumber: string) => {
    // The bill as a provider that fetches bills leaves it (Reloadly's utilities API fetches none).
    await service.app.get<BillFetchStore>(BILL_FETCH_STORE, { strict: false }).save({
      partnerId,
      environment: 'live',
      billerId: 1005,
      consumerNumber,
      amount: '850.50',
      currency: 'INR',
      billReference: `BILL-${consumerNumber}`,
      fetchedAt: clock.now().toISOString(),
    });
    const paid = await service.partner(
      'POST',
      '/pay-bill',
      liveKey,
      { biller_id: 1005, consumer_number: consumerNumber, amount: 850.5 },
      { 'idempotency-key': `last-word-bill-${consumerNumber}` },
    );
    expect(paid.status).toBe(200);
    return paid.body.order_id as string;
  };
  const view = async (service: TestService, liveKey: string, orderId: string) =>
    (await service.partner('GET', `/transactions/${orderId}`, liveKey)).body;
  const heldStatus = async (service: TestService, orderId: string) =>
    (
      (await service.admin('GET', '/orders?held=true&limit=1000')).body.orders as { order_id: string; status: string }[]
    ).find((order) => order.order_id === orderId)?.status ?? null;
  const count = async (service: TestService, orderId: string, type: string) =>
    (await orderEvents(service, orderId, type)).length;
  const expectVerified = async (service: TestService) =>
    expect((await service.verify()).body).toMatchObject({ ok: true, breaches: [] });

  it(
    'a topup that timed out and that Reloadly shows 75 s later: held at the stuck limit, then settled by a look-up after a restart, announced to the partner',
    async () => {
      let service = await begin({ reportLagMs: 75_000 });
      const { liveKey } = await liveWalletPartner(service);

      const orderId = await place(service, liveKey, '0016');
      await service.settle(); // the send hangs and is abandoned at PROVIDER_TIMEOUT_MS: in doubt
      expect(await count(service, orderId, 'TransactionAttemptInDoubt')).toBe(1);
      await service.advance(FIRST_RETRY_MS);
      await service.advance(STUCK_AFTER_MS - FIRST_RETRY_MS);
      expect(await heldStatus(service, orderId)).toBe('DISPUTED');
      expect((await view(service, liveKey, orderId)).status).toBe('PENDING');
      const lookUps = await orderEvents(service, orderId, 'TransactionLookedUp');
      expect(lookUps.map((event) => event.data.result)).toContainEqual(
        expect.stringMatching(/^reloadly has no transaction under ord_\w+ yet; it may still show one until /),
      );

      service = await restart(service);
      await service.advance(10_000); // 70 s after placement: Reloadly's report does not list it yet
      expect(await heldStatus(service, orderId)).toBe('DISPUTED');
      await service.advance(HOUR_MS - 70_000); // the look-ups after the hold (1, 2, 4 … minutes) find it
      const [transaction] = transactionsOf(upstream!, orderId);
      expect(await view(service, liveKey, orderId)).toMatchObject({
        status: 'SUCCESS',
        operator_ref: transaction.operatorTransactionId,
        refunded_at: null,
      });
      expect(await count(service, orderId, 'TransactionSettled')).toBe(1);
      expect(await count(service, orderId, 'WalletRefunded')).toBe(0);
      expect(submissionsOf(upstream!, orderId)).toHaveLength(1);
      // Live webhooks need an https receiver; the events feed holds the same body as the webhook.
      const feed = (await service.partner('GET', '/events', liveKey)).body.events as Record<string, unknown>[];
      expect(feed.filter((event) => event.order_id === orderId).map((event) => event.event)).toEqual([
        'transaction.succeeded',
      ]);
      expect((await service.partner('GET', '/balance', liveKey)).body.available).toBe('4801.00');
      await expectVerified(service);
    },
    SERVICE_START_TIMEOUT_MS,
  );

  it(
    'an empty report inside the horizon refunds nothing; past the horizon, a complete empty report refunds once',
    async () => {
      const service = await begin();
      const { liveKey } = await liveWalletPartner(service);
      const orderId = await place(service, liveKey, '0009'); // 503, nothing recorded upstream
      await service.settle();
      await service.advance(FIRST_RETRY_MS);
      await service.advance(STUCK_AFTER_MS);
      expect(await heldStatus(service, orderId)).toBe('DISPUTED');

      const horizonMs = RELOADLY_DELIVERY_HORIZON_MS.topup;
      await service.advance(HOUR_MS);
      await service.advance(horizonMs - HOUR_MS - STUCK_AFTER_MS - FIRST_RETRY_MS - MINUTE_MS);
      // A minute before the horizon: looked up again and again, never refunded, still PENDING for the partner.
      expect(await heldStatus(service, orderId)).toBe('DISPUTED');
      expect((await view(service, liveKey, orderId)).status).toBe('PENDING');
      expect(await count(service, orderId, 'WalletRefunded')).toBe(0);
      expect(await count(service, orderId, 'TransactionLookedUp')).toBeGreaterThanOrEqual(4);

      await service.advance(MINUTE_MS);
      expect(await view(service, liveKey, orderId)).toMatchObject({
        status: 'FAILED',
        refunded_at: expect.any(String),
      });
      const [failed] = await orderEvents(service, orderId, 'TransactionFailed');
      expect(failed.data).toMatchObject({
        basis: 'absence_confirmed',
        reason: expect.stringMatching(/every page\) shows none, past the 24 h horizon after the order was placed$/),
      });
      await service.advance(HOUR_MS);
      expect(await count(service, orderId, 'WalletRefunded')).toBe(1);
      expect(submissionsOf(upstream!, orderId).map((sent) => sent.answer)).toEqual([503]);
      expect((await service.partner('GET', '/balance', liveKey)).body.available).toBe('5000.00');
      await expectVerified(service);
    },
    SERVICE_START_TIMEOUT_MS,
  );

  it(
    'a 429 with Retry-After to the send: sent again after Retry-After, and the order is neither in doubt, nor held, nor refunded for it',
    async () => {
      // Retry-After shorter than the stuck-order limit (60 s here): a longer one would see the order held first.
      const service = await begin({ retryAfterSeconds: 45 });
      const { liveKey } = await liveWalletPartner(service);
      const orderId = await place(service, liveKey, '0021');
      await service.settle();
      expect(submissionsOf(upstream!, orderId).map((sent) => sent.answer)).toEqual([429]);
      expect(await count(service, orderId, 'TransactionAttemptNotSent')).toBe(1);
      expect(await count(service, orderId, 'TransactionAttemptInDoubt')).toBe(0);

      await service.advance(44_000);
      expect(submissionsOf(upstream!, orderId)).toHaveLength(1);
      await service.advance(1_000);
      expect(submissionsOf(upstream!, orderId).map((sent) => sent.answer)).toEqual([429, 200]);
      expect((await view(service, liveKey, orderId)).status).toBe('SUCCESS');
      for (const type of ['TransactionAttemptInDoubt', 'TransactionDisputed', 'WalletRefunded'])
        expect(await count(service, orderId, type)).toBe(0);
      await expectVerified(service);
    },
    SERVICE_START_TIMEOUT_MS,
  );

  it(
    'a payment whose token Reloadly finds too old is answered 401 TOKEN_EXPIRED: a new token, the same send once more, paid once',
    async () => {
      const service = await begin({ tokenMaxAgeSeconds: 600 });
      const { partnerId, liveKey } = await liveWalletPartner(service);
      const first = await payBill(service, partnerId, liveKey, '1234560001');
      await service.settle();
      expect((await view(service, liveKey, first)).status).toBe('SUCCESS');

      await service.advance(11 * MINUTE_MS);
      // A topup first: its reads replace the airtime token; the utilities token is left to the payment's send.
      const topup = await place(service, liveKey, '0001');
      await service.settle();
      expect((await view(service, liveKey, topup)).status).toBe('SUCCESS');
      const refusedBefore = upstream!.simulator.state.unauthorized.length;

      const second = await payBill(service, partnerId, liveKey, '1234560101');
      await service.settle();
      expect(upstream!.simulator.state.unauthorized.slice(refusedBefore)).toEqual([
        { path: 'POST /utilities/pay', errorCode: 'TOKEN_EXPIRED' },
      ]);
      expect((await view(service, liveKey, second)).status).toBe('SUCCESS');
      expect(submissionsOf(upstream!, second)).toHaveLength(1);
      expect(transactionsOf(upstream!, second)).toHaveLength(1);
      for (const type of ['TransactionAttemptInDoubt', 'TransactionAttemptNotSent', 'WalletRefunded'])
        expect(await count(service, second, type)).toBe(0);
      await expectVerified(service);
    },
    SERVICE_START_TIMEOUT_MS,
  );

  it(
    'a success for less than the order is held at once, never settled or refunded, with an amount_mismatch finding for finance',
    async () => {
      const service = await begin();
      const { liveKey } = await liveWalletPartner(service);
      const orderId = await place(service, liveKey, '0022');
      await service.settle();
      expect(await heldStatus(service, orderId)).toBe('DISPUTED');
      expect((await view(service, liveKey, orderId)).status).toBe('PENDING');
      const [transaction] = transactionsOf(upstream!, orderId);
      const [mismatch] = await orderEvents(service, orderId, 'TransactionSuccessMismatched');
      expect(mismatch.data).toMatchObject({
        reason: expect.stringContaining("it delivered 179.1 INR, less than the order's 199.00 INR"),
        transactionId: String(transaction.id),
        amount: '179.1',
        currency: 'INR',
      });
      const findings = await orderEvents(service, orderId, 'ReconciliationMismatchFound');
      expect(findings.map((finding) => finding.data)).toEqual([
        expect.objectContaining({
          provider: 'reloadly',
          kind: 'amount_mismatch',
          orderId,
          date: clock.now().toISOString().slice(0, 10),
          upstream: expect.objectContaining({
            transactionId: String(transaction.id),
            amount: '179.1',
            currency: 'INR',
          }),
        }),
      ]);

      // Followed after the hold, Reloadly says the same: nothing more is recorded, nothing moves.
      await service.advance(HOUR_MS);
      expect(await count(service, orderId, 'TransactionSuccessMismatched')).toBe(1);
      expect(await count(service, orderId, 'ReconciliationMismatchFound')).toBe(1);
      for (const type of ['TransactionSettled', 'TransactionFailed', 'WalletRefunded'])
        expect(await count(service, orderId, type)).toBe(0);
      const audit = (await service.admin('GET', `/audit/orders/${orderId}`)).body as {
        events: { event_type: string }[];
      };
      expect(audit.events.map((event) => event.event_type)).toEqual(
        expect.arrayContaining(['TransactionSuccessMismatched', 'TransactionDisputed']),
      );
      await expectVerified(service);
    },
    SERVICE_START_TIMEOUT_MS,
  );
});
