import { BILL_FETCH_STORE, BillFetchStore } from '../../../src/application/ports/bill-fetch-store.port';
import { ManualClock } from '../../support/manual-clock';
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
import { SimulatorOptions } from '../../../tools/provider-sim/simulator';

const PROVIDER_TIMEOUT_MS = 1_000;
const FIRST_RETRY_MS = 2_000;
const LOOK_AGAIN_MS = 30_000;
const DAY_MS = 86_400_000;
/** Reloadly's horizon for a topup: no absence is confirmed before it (docs/decisions/0120-reloadly-absence-after-the-horizon.md). */
const TOPUP_HORIZON_MS = DAY_MS;
const HOUR_MS = 3_600_000;
const STUCK_AFTER_MS = 900_000;
/** Attempts in flight stay invisible until a test reveals them: what a look-up sees never depends on the machine's speed. */
const UNTIL_REVEALED_MS = 3_600_000;

/**
 * Live orders whose first attempt may have reached Reloadly (the money rule of
 * docs/decisions/0039-unknown-outcome-provider-word.md), against the
 * protocol simulator over HTTP, each with the service stopped and started again on the same
 * database in the middle: nothing is refunded while the first attempt may still succeed, nothing
 * is sent twice, and the ledger verifies.
 */
describe('live orders in doubt, with a service restart in the middle (simulator over HTTP, postgres store)', () => {
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
      env: { ...upstream!.env, PROVIDER_TIMEOUT_MS: String(PROVIDER_TIMEOUT_MS) },
    });
    await routeToSimulator(service);
    return service;
  };
  const begin = async (options: SimulatorOptions = {}): Promise<TestService> => {
    clock = new ManualClock(new Date());
    upstream = await startLiveUpstream({ hangMs: 3_000, invisibleMs: UNTIL_REVEALED_MS, ...options });
    services = await ServicesOnOneDatabase.create('in-doubt');
    return start();
  };
  const restart = async (service: TestService): Promise<TestService> => {
    await services!.stop(service);
    return start();
  };

  let line = 0;
  const phone = (suffix: string) => `+9198${String(++line).padStart(4, '0')}${suffix}`;
  const place = async (service: TestService, liveKey: string, number: string, amount = 199): Promise<string> => {
    const placed = await service.topup(
      liveKey,
      { operator_id: 101, phone: number, amount },
      `doubt-${number}-${Math.random().toString(36).slice(2)}`,
    );
    expect(placed.status).toBe(200);
    return placed.body.order_id as string;
  };
  const view = async (service: TestService, liveKey: string, orderId: string) =>
    (await service.partner('GET', `/transactions/${orderId}`, liveKey)).body;
  const refunds = async (service: TestService, orderId: string) =>
    (await orderEvents(service, orderId, 'WalletRefunded')).length;
  const eventTypes = async (service: TestService, orderId: string) =>
    ((await service.admin('GET', `/audit/orders/${orderId}`)).body.events as { event_type: string }[]).map(
      (event) => event.event_type,
    );
  /** The attempt in flight becomes visible to Reloadly's look-ups. */
  const reveal = (orderId: string) => {
    for (const transaction of transactionsOf(upstream!, orderId)) transaction.visibleAt = Date.now();
  };
  const expectVerified = async (service: TestService) =>
    expect((await service.verify()).body).toMatchObject({ ok: true, breaches: [] });

  /** An order in flight (0012): sent, recorded upstream, answered never; in doubt after the first run. */
  const inFlight = async (service: TestService, liveKey: string, number = phone('0012')) => {
    const orderId = await place(service, liveKey, number);
    await service.settle();
    expect(await orderEvents(service, orderId, 'TransactionAttemptInDoubt')).toHaveLength(1);
    return orderId;
  };

  /** After the restart: the retried run and a look-up find nothing; the attempt shows; the next look-up settles it. */
  const followToSuccess = async (service: TestService, liveKey: string, orderId: string) => {
    await service.advance(FIRST_RETRY_MS);
    await service.advance(LOOK_AGAIN_MS);
    expect((await view(service, liveKey, orderId)).status).toBe('PENDING');
    expect(await refunds(service, orderId)).toBe(0);
    expect((await orderEvents(service, orderId, 'TransactionLookedUp')).length).toBeGreaterThanOrEqual(2);
    reveal(orderId);
    await service.advance(LOOK_AGAIN_MS);
    const [transaction] = transactionsOf(upstream!, orderId);
    expect(await view(service, liveKey, orderId)).toMatchObject({
      status: 'SUCCESS',
      // A topup's operator transaction id; a payment's own id.
      operator_ref: transaction.api === 'airtime' ? transaction.operatorTransactionId : String(transaction.id),
      refunded_at: null,
    });
    expect(await refunds(service, orderId)).toBe(0);
    expect(submissionsOf(upstream!, orderId)).toHaveLength(1);
    expect(transactionsOf(upstream!, orderId)).toHaveLength(1);
  };

  it(
    'an attempt in flight and invisible to look-ups, then successful: SUCCESS, never refunded, sent once (and TOPUP_TRANSACTION_FAILED is no refusal either)',
    async () => {
      let service = await begin();
      const { liveKey } = await liveWalletPartner(service);
      const inFlightOrder = await inFlight(service, liveKey);
      // Answered TOPUP_TRANSACTION_FAILED ("may fail for various reasons"), yet recorded: unknown, in doubt, not refunded.
      const answeredFailed = await place(service, liveKey, phone('0015'));
      await service.settle();
      expect(await orderEvents(service, answeredFailed, 'TransactionAttemptInDoubt')).toHaveLength(1);
      expect(await refunds(service, answeredFailed)).toBe(0);

      service = await restart(service);
      reveal(answeredFailed);
      await followToSuccess(service, liveKey, inFlightOrder);
      expect((await view(service, liveKey, answeredFailed)).status).toBe('SUCCESS');
      expect(await refunds(service, answeredFailed)).toBe(0);
      expect(submissionsOf(upstream!, answeredFailed)).toHaveLength(1);
      expect(await eventTypes(service, inFlightOrder)).toEqual(
        expect.arrayContaining(['TransactionAttemptInDoubt', 'TransactionLookedUp', 'TransactionSettled']),
      );
      expect((await service.partner('GET', '/balance', liveKey)).body.available).toBe('4602.00');
      await expectVerified(service);
    },
    SERVICE_START_TIMEOUT_MS,
  );

  it(
    'the two-minute rule refuses the number again: a new order to it fails and is refunded, the order in doubt is not sent again and not refunded',
    async () => {
      let service = await begin({ recentRechargeMs: 120_000 });
      const { liveKey } = await liveWalletPartner(service);
      const number = phone('0012');
      const orderId = await inFlight(service, liveKey, number);
      service = await restart(service);

      const another = await place(service, liveKey, number);
      await service.settle();
      expect(await view(service, liveKey, another)).toMatchObject({ status: 'FAILED' });
      expect(submissionsOf(upstream!, another).map((sent) => sent.errorCode)).toEqual(['PHONE_RECENTLY_RECHARGED']);
      expect(await refunds(service, another)).toBe(1);

      await followToSuccess(service, liveKey, orderId);
      await expectVerified(service);
    },
    SERVICE_START_TIMEOUT_MS,
  );

  it(
    'the first attempt drew the float: Reloadly refuses the next order INSUFFICIENT_BALANCE (refunded), the order in doubt is not sent again and not refunded',
    async () => {
      // 199 INR costs about 2.39 USD at the simulator's rate: after the first attempt 0.61 USD is left.
      let service = await begin({ balance: '3.00' });
      const { liveKey } = await liveWalletPartner(service);
      const orderId = await inFlight(service, liveKey);
      service = await restart(service);

      // The float cannot be read just then: our check steps aside and Reloadly refuses.
      upstream!.simulator.state.faults.balanceUnavailableNext = 1;
      const another = await place(service, liveKey, phone('0001'));
      await service.settle();
      expect(await view(service, liveKey, another)).toMatchObject({ status: 'FAILED' });
      expect(submissionsOf(upstream!, another).map((sent) => sent.errorCode)).toEqual(['INSUFFICIENT_BALANCE']);
      expect(await refunds(service, another)).toBe(1);

      await followToSuccess(service, liveKey, orderId);
      await expectVerified(service);
    },
    SERVICE_START_TIMEOUT_MS,
  );

  it(
    'the first attempt drew the float: our own float check stops the next order (refunded, not sent), the order in doubt is not sent again and not refunded',
    async () => {
      let service = await begin({ balance: '3.00' });
      const { liveKey } = await liveWalletPartner(service);
      const orderId = await inFlight(service, liveKey);
      service = await restart(service);

      const another = await place(service, liveKey, phone('0001'));
      await service.settle();
      expect(await view(service, liveKey, another)).toMatchObject({ status: 'FAILED' });
      expect(submissionsOf(upstream!, another)).toHaveLength(0);
      const [failed] = await orderEvents(service, another, 'TransactionFailed');
      expect(failed.data).toMatchObject({ basis: 'not_sent', reason: expect.stringContaining('cannot cover') });

      await followToSuccess(service, liveKey, orderId);
      await expectVerified(service);
    },
    SERVICE_START_TIMEOUT_MS,
  );

  it(
    'a topup Reloadly refunds, whose status answer carries no transaction: FAILED and refunded once',
    async () => {
      let service = await begin();
      const { liveKey } = await liveWalletPartner(service);
      const orderId = await place(service, liveKey, phone('0013'));
      await service.settle();
      expect((await view(service, liveKey, orderId)).status).toBe('PENDING');
      expect(await orderEvents(service, orderId, 'TransactionSubmitted')).toHaveLength(1);
      service = await restart(service);

      await service.advance(LOOK_AGAIN_MS);
      expect(await view(service, liveKey, orderId)).toMatchObject({
        status: 'FAILED',
        refunded_at: expect.any(String),
      });
      const [failed] = await orderEvents(service, orderId, 'TransactionFailed');
      expect(failed.data).toMatchObject({ basis: 'provider_record', reason: expect.stringContaining('REFUNDED') });
      await service.advance(LOOK_AGAIN_MS);
      expect(await refunds(service, orderId)).toBe(1);
      expect((await service.partner('GET', '/balance', liveKey)).body.available).toBe('5000.00');
      await expectVerified(service);
    },
    SERVICE_START_TIMEOUT_MS,
  );

  it(
    'a bill payment in flight is never paid again, although Reloadly would pay a repeated referenceId: paid once',
    async () => {
      let service = await begin();
      const { partnerId, liveKey } = await liveWalletPartner(service);
      const consumerNumber = '1234560012';
      // The bill as a provider that fetches bills leaves it (Reloadly's utilities API fetches none).
      await service.app.get<BillFetchStore>(BILL_FETCH_STORE, { strict: false }).save({
        partnerId,
        environment: 'live',
        billerId: 1005,
        consumerNumber,
        amount: '850.50',
        currency: 'INR',
        billReference: 'BILL-2026-03',
        fetchedAt: clock.now().toISOString(),
      });
      const paid = await service.partner(
        'POST',
        '/pay-bill',
        liveKey,
        { biller_id: 1005, consumer_number: consumerNumber, amount: 850.5 },
        { 'idempotency-key': 'doubt-bill-0012' },
      );
      expect(paid.status).toBe(200);
      const orderId = paid.body.order_id as string;
      await service.settle();
      expect(await orderEvents(service, orderId, 'TransactionAttemptInDoubt')).toHaveLength(1);
      service = await restart(service);

      await followToSuccess(service, liveKey, orderId);
      expect(transactionsOf(upstream!, orderId)[0]).toMatchObject({ api: 'utilities', target: consumerNumber });
      await expectVerified(service);
    },
    SERVICE_START_TIMEOUT_MS,
  );

  it(
    'a 429 to the send is no doubt: the order is sent again after each Retry-After (never looked up as in doubt), held at the stuck limit and still sent after each Retry-After, and refunded as never sent only at its horizon; an order behind the limit is not sent, not in doubt, and sent later',
    async () => {
      let service = await begin({ retryAfterSeconds: 60 });
      const { liveKey } = await liveWalletPartner(service);
      const limited = await place(service, liveKey, phone('0014'));
      await service.settle();
      const behind = await place(service, liveKey, phone('0001'));
      await service.settle();
      expect(submissionsOf(upstream!, limited).map((sent) => sent.answer)).toEqual([429]);
      expect(submissionsOf(upstream!, behind)).toHaveLength(0);
      for (const orderId of [limited, behind]) {
        expect(await orderEvents(service, orderId, 'TransactionAttemptInDoubt')).toHaveLength(0);
        expect(await orderEvents(service, orderId, 'TransactionAttemptNotSent')).toHaveLength(1);
      }
      // The pause is this process's, but the jobs wait for Reloadly's reset wherever they run next.
      service = await restart(service);
      await service.advance(FIRST_RETRY_MS);
      expect(submissionsOf(upstream!, behind)).toHaveLength(0);

      // Reloadly keeps refusing the one order: it is sent again after each reset until it is held.
      await service.advance(60_000 - FIRST_RETRY_MS);
      expect(submissionsOf(upstream!, limited).map((sent) => sent.answer)).toEqual([429, 429]);
      await service.advance(STUCK_AFTER_MS);
      await service.advance(60_000);
      expect(await view(service, liveKey, behind)).toMatchObject({ status: 'SUCCESS' });
      expect(submissionsOf(upstream!, behind)).toHaveLength(1);
      expect(await orderEvents(service, behind, 'TransactionAttemptInDoubt')).toHaveLength(0);
      const sent = submissionsOf(upstream!, limited).map((attempt) => attempt.answer);
      expect(sent.length).toBeGreaterThan(1);
      expect(new Set(sent)).toEqual(new Set([429]));
      expect(await orderEvents(service, limited, 'TransactionAttemptInDoubt')).toHaveLength(0);
      expect(await orderEvents(service, limited, 'TransactionDisputed')).toHaveLength(1);
      expect((await view(service, liveKey, limited)).status).toBe('PENDING');
      expect(await refunds(service, limited)).toBe(0);

      // Held, it is still sent after each Retry-After (a rate limit is no reason to stop), every time refused.
      await service.advance(60_000);
      await service.advance(60_000);
      const sentWhileHeld = submissionsOf(upstream!, limited).map((attempt) => attempt.answer);
      expect(sentWhileHeld.length).toBeGreaterThan(sent.length);
      expect(new Set(sentWhileHeld)).toEqual(new Set([429]));
      expect(await refunds(service, limited)).toBe(0);

      // At its horizon, the log proving that no attempt was ever read, it fails as never sent and is refunded once.
      await service.advance(TOPUP_HORIZON_MS);
      expect(await view(service, liveKey, limited)).toMatchObject({
        status: 'FAILED',
        refunded_at: expect.any(String),
      });
      const [failed] = await orderEvents(service, limited, 'TransactionFailed');
      expect(failed.data).toMatchObject({ basis: 'not_sent' });
      expect(await refunds(service, limited)).toBe(1);
      expect(submissionsOf(upstream!, limited)).toHaveLength(sentWhileHeld.length);
      await expectVerified(service);
    },
    SERVICE_START_TIMEOUT_MS,
  );

  it(
    'a report answering 404 "try again later" confirms nothing: the order in doubt stays unrefunded until its horizon, and fails at its horizon once the report answers',
    async () => {
      let service = await begin();
      const { liveKey } = await liveWalletPartner(service);
      const orderId = await place(service, liveKey, phone('0009')); // 503, nothing recorded
      await service.settle();
      expect(await orderEvents(service, orderId, 'TransactionAttemptInDoubt')).toHaveLength(1);
      service = await restart(service);

      upstream!.simulator.state.faults.reportsUnavailableNext = 1_000;
      await service.advance(FIRST_RETRY_MS);
      await service.advance(STUCK_AFTER_MS);
      await service.advance(TOPUP_HORIZON_MS - STUCK_AFTER_MS - FIRST_RETRY_MS - HOUR_MS);
      expect((await view(service, liveKey, orderId)).status).toBe('PENDING');
      expect(await refunds(service, orderId)).toBe(0);
      const lookUps = await orderEvents(service, orderId, 'TransactionLookedUp');
      expect(lookUps.map((event) => event.data.result)).toContainEqual(expect.stringContaining('HTTP 404'));

      upstream!.simulator.state.faults.reportsUnavailableNext = 0;
      await service.advance(HOUR_MS);
      expect((await view(service, liveKey, orderId)).status).toBe('FAILED');
      expect(await refunds(service, orderId)).toBe(1);
      expect(submissionsOf(upstream!, orderId)).toHaveLength(1);
      await expectVerified(service);
    },
    SERVICE_START_TIMEOUT_MS,
  );

  it(
    'an order in doubt that no look-up settles is held for an operator at the stuck-order limit, never refunded, with each attempt and look-up in its audit',
    async () => {
      let service = await begin();
      const { liveKey } = await liveWalletPartner(service);
      const orderId = await place(service, liveKey, phone('0009')); // 503, nothing recorded
      await service.settle();
      service = await restart(service);

      upstream!.simulator.state.faults.reportsUnavailableNext = 1_000_000;
      await service.advance(FIRST_RETRY_MS);
      await service.advance(STUCK_AFTER_MS);
      const held = (await service.admin('GET', '/orders?held=true&limit=1000')).body.orders as {
        order_id: string;
        status: string;
      }[];
      expect(held.find((order) => order.order_id === orderId)?.status).toBe('DISPUTED');
      expect((await view(service, liveKey, orderId)).status).toBe('PENDING');
      expect(await refunds(service, orderId)).toBe(0);

      const audit = (await service.admin('GET', `/audit/orders/${orderId}`)).body as {
        outcome: string;
        events: { event_type: string; data: Record<string, unknown> }[];
      };
      expect(audit.outcome).toBe('DISPUTED');
      const inDoubt = audit.events.find((event) => event.event_type === 'TransactionAttemptInDoubt');
      expect(inDoubt?.data.reason).toEqual(expect.stringContaining('HTTP 503'));
      expect(audit.events.filter((event) => event.event_type === 'TransactionLookedUp').length).toBeGreaterThan(0);
      // A held order is still looked up (docs/decisions/0117-held-orders-followed.md): only look-ups follow the hold.
      const types = audit.events.map((event) => event.event_type);
      expect(types).toContain('TransactionDisputed');
      expect(new Set(types.slice(types.indexOf('TransactionDisputed') + 1))).toEqual(
        new Set(types.at(-1) === 'TransactionDisputed' ? [] : ['TransactionLookedUp']),
      );
      expect(submissionsOf(upstream!, orderId)).toHaveLength(1);
      await expectVerified(service);
    },
    SERVICE_START_TIMEOUT_MS,
  );

  it(
    'reconciles a day whose report is dated in New York time and given in short pages: every order matched, dated when it was sent',
    async () => {
      let service = await begin({ maxPageSize: 2 });
      const { liveKey } = await liveWalletPartner(service);
      const sentAt = Date.now();
      const orderIds: string[] = [];
      for (let i = 0; i < 5; i++) orderIds.push(await place(service, liveKey, phone('0001')));
      await service.settle();
      const day = clock.now().toISOString().slice(0, 10);
      service = await restart(service);

      service.clock.advance(DAY_MS);
      const report = await service.admin('POST', '/providers/reconciliation', { date: day });
      expect(report.status).toBe(200);
      expect(report.body).toMatchObject({
        complete: true,
        counts: { matched: 5, amount_mismatch: 0, provider_only: 0, ours_only: 0, status_mismatch: 0 },
        recorded: 0,
      });
      const findings = report.body.findings as { order_id: string; upstream: { at: string } }[];
      for (const orderId of orderIds) {
        const finding = findings.find((candidate) => candidate.order_id === orderId);
        expect(Math.abs(Date.parse(finding!.upstream.at) - sentAt)).toBeLessThan(60_000);
      }
      await expectVerified(service);
    },
    SERVICE_START_TIMEOUT_MS,
  );
});
