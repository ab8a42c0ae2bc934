import { ManualClock } from '../../support/manual-clock';
import { orderEvents } from '../../support/ledger';
import { liveWalletPartner } from '../../support/live-provider';
import { TestDatabase, createTestDatabase } from '../../support/postgres-test-database';
import {
  SetuUpstream,
  bescom,
  billInfo,
  jvvnl,
  payBill,
  routeBillsToSetu,
  setuPaymentsOf,
  setuSubmissionsOf,
  startSetuUpstream,
} from '../../support/setu-upstream';
import { TestService } from '../../support/test-service';
import { SERVICE_START_TIMEOUT_MS } from '../../support/timeouts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const STUCK_AFTER_MS = MINUTE;
const TEST_TIMEOUT_MS = 3 * SERVICE_START_TIMEOUT_MS;

/**
 * Setu payments held at the stuck limit are followed to Setu's last word (docs/decisions/0117-held-orders-followed.md,
 * 0121-setu-absence-and-answers.md), with the Setu simulator on the service's own clock: a payment Processing for
 * 75 s or for a day settles by itself, a failure a day later refunds once, a lost payment the list shows only after
 * two hours is never refunded on its absence, and nothing is settled on a record that is not the order's.
 */
describe('held Setu payments followed to Setu’s last word (postgres store)', () => {
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
      env: {
        ...upstream.env,
        PROVIDER_TIMEOUT_MS: '1000',
        STUCK_ORDER_AFTER_SECONDS: String(STUCK_AFTER_MS / 1000),
      },
    });
    await routeBillsToSetu(started);
    return started;
  };
  const restart = async () => {
    await service?.close();
    service = null;
    service = await start();
  };
  const view = async (orderId: string) => (await service!.partner('GET', `/transactions/${orderId}`, liveKey)).body;
  const internalStatus = async (orderId: string) =>
    (await service!.admin('GET', `/orders/${orderId}`)).body.status as string;
  const balance = async () => (await service!.partner('GET', '/balance', liveKey)).body.available as string;
  /** Fetches the bill, pays it, and lets the submission run. */
  const pay = async (consumer: string, amount: number, key: string, billerId = 1005) => {
    const info = await billInfo(service!, liveKey, consumer, billerId);
    if (info.status !== 200) throw new Error(`bill-info ${info.status} ${info.text}`);
    const paid = await payBill(service!, liveKey, consumer, amount, key, billerId);
    if (paid.status !== 200) throw new Error(`pay-bill ${paid.status} ${paid.text}`);
    await service!.settle();
    return paid.body.order_id as string;
  };
  const events = (orderId: string, type: string) => orderEvents(service!, orderId, type);

  beforeAll(async () => {
    upstream = await startSetuUpstream({
      settleAfterMs: 75_000,
      pendingForMs: DAY,
      listLagMs: 2 * HOUR,
      now: () => clock.now().getTime(),
    });
    database = await createTestDatabase('live-setu-followed');
    service = await start();
    ({ liveKey } = await liveWalletPartner(service, 'IN', '20000.00'));
  }, SERVICE_START_TIMEOUT_MS);
  afterAll(async () => {
    await service?.close();
    await database?.drop();
    await upstream?.close();
  });

  it(
    'a payment Setu completes after 75 s is held at the stuck limit, then settled by Setu’s Success across a restart',
    async () => {
      const before = await balance();
      const orderId = await pay(bescom('0001'), 500, 'followed-75s');
      await service!.advance(STUCK_AFTER_MS);
      expect(await internalStatus(orderId)).toBe('DISPUTED');
      expect((await view(orderId)).status).toBe('PENDING');
      await restart();
      await service!.advance(MINUTE);
      expect(await view(orderId)).toMatchObject({
        status: 'SUCCESS',
        operator_ref: setuPaymentsOf(upstream, orderId)[0].transactionId,
      });
      expect(await events(orderId, 'TransactionSettled')).toHaveLength(1);
      expect(await events(orderId, 'WalletRefunded')).toHaveLength(0);
      expect(setuSubmissionsOf(upstream, orderId)).toHaveLength(1);
      expect(await balance()).toBe((Number(before) - 500).toFixed(2));
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'a biller with pending status keeps a payment Processing for a day: held, looked up, settled the next day on a new token',
    async () => {
      const orderId = await pay(jvvnl('0001'), 500, 'followed-day', 1013);
      await service!.advance(STUCK_AFTER_MS);
      await service!.advance(MINUTE);
      expect(await internalStatus(orderId)).toBe('DISPUTED');
      const asked = await events(orderId, 'TransactionLookedUp');
      expect(asked.length).toBeGreaterThan(0);
      const tokens = upstream.simulator.state.tokensIssued;
      await restart();
      // A day later Setu has expired our token (it lives 600 s): it is replaced and the look-up made again.
      await service!.advance(DAY);
      expect(await view(orderId)).toMatchObject({ status: 'SUCCESS' });
      expect(upstream.simulator.state.tokensIssued).toBeGreaterThan(tokens);
      expect(await events(orderId, 'WalletRefunded')).toHaveLength(0);
      expect(setuPaymentsOf(upstream, orderId)).toEqual([expect.objectContaining({ status: 'Success' })]);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'a payment Setu fails a day later is refunded once, on Setu’s Failure record',
    async () => {
      const before = await balance();
      const orderId = await pay(jvvnl('0002'), 1500, 'followed-day-failed', 1013);
      await service!.advance(STUCK_AFTER_MS);
      expect(await internalStatus(orderId)).toBe('DISPUTED');
      await service!.advance(DAY);
      expect(await view(orderId)).toMatchObject({ status: 'FAILED', refunded_at: expect.any(String) });
      expect(await events(orderId, 'TransactionFailed')).toEqual([
        expect.objectContaining({ data: expect.objectContaining({ basis: 'provider_record' }) }),
      ]);
      await service!.advance(DAY);
      expect(await events(orderId, 'WalletRefunded')).toHaveLength(1);
      expect(await balance()).toBe(before);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'a lost payment the list shows only after 2 hours is never refunded on its absence: held, then settled when listed',
    async () => {
      const before = await balance();
      await billInfo(service!, liveKey, bescom('0011'));
      const paid = await payBill(service!, liveKey, bescom('0011'), 500, 'followed-unlisted');
      const orderId = paid.body.order_id as string;
      await service!.settle(); // recorded by Setu; the answer never comes (abandoned at PROVIDER_TIMEOUT_MS)
      expect(setuPaymentsOf(upstream, orderId)).toHaveLength(1);
      // The service is down for 90 minutes: its retry comes after the re-send window and after the 75 minutes
      // that used to confirm an absence; the list does not show the payment yet.
      await service!.close();
      service = null;
      clock.advance(90 * MINUTE);
      service = await start();
      await service.settle();
      expect(await internalStatus(orderId)).toBe('DISPUTED');
      // Both the retried submission and the hold are due at the restart, in either order: a retry run first asks
      // Setu before the hold, a hold first leaves the asking to the held order's first follow-up a minute later.
      await service.advance(MINUTE);
      expect(await events(orderId, 'TransactionFailed')).toHaveLength(0);
      expect((await events(orderId, 'TransactionLookedUp')).map((event) => event.data.result)).toContainEqual(
        expect.stringContaining('it may still give one until'),
      );
      await service.advance(HOUR);
      expect(await view(orderId)).toMatchObject({
        status: 'SUCCESS',
        operator_ref: setuPaymentsOf(upstream, orderId)[0].transactionId,
      });
      expect(setuSubmissionsOf(upstream, orderId)).toHaveLength(1);
      expect(await events(orderId, 'WalletRefunded')).toHaveLength(0);
      expect(await balance()).toBe((Number(before) - 500).toFixed(2));
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'a payment whose records carry no paymentRefId is never settled on them, nor refunded as absent, past the horizon',
    async () => {
      const before = await balance();
      const orderId = await pay(bescom('0017'), 500, 'followed-unreferenced');
      expect(setuPaymentsOf(upstream, orderId)).toHaveLength(1);
      await service!.advance(STUCK_AFTER_MS);
      await service!.advance(DAY);
      await service!.advance(2 * DAY);
      expect(await internalStatus(orderId)).toBe('DISPUTED');
      expect(await events(orderId, 'TransactionSettled')).toHaveLength(0);
      expect(await events(orderId, 'TransactionFailed')).toHaveLength(0);
      expect((await events(orderId, 'TransactionLookedUp')).map((event) => event.data.result)).toContainEqual(
        expect.stringContaining('never taken as absent'),
      );
      expect(await balance()).toBe((Number(before) - 500).toFixed(2));
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'a Success of another amount holds the order at once and files a finding for finance on the day Setu dates it',
    async () => {
      const orderId = await pay(bescom('0001'), 500, 'followed-mismatch');
      const [payment] = setuPaymentsOf(upstream, orderId);
      payment.amountPaise = 50_100;
      await service!.advance(90_000);
      expect(await internalStatus(orderId)).toBe('DISPUTED');
      expect((await view(orderId)).status).toBe('PENDING');
      // Finance's audit tells the same story as the order's own rules.
      expect((await service!.admin('GET', `/audit/orders/${orderId}`)).body.outcome).toBe('DISPUTED');
      expect(await events(orderId, 'TransactionSuccessMismatched')).toEqual([
        expect.objectContaining({
          data: expect.objectContaining({ transactionId: payment.transactionId, amount: '501.00', currency: 'INR' }),
        }),
      ]);
      const day = new Date(Date.parse(payment.timestamp)).toISOString().slice(0, 10);
      expect(await events(orderId, 'ReconciliationMismatchFound')).toEqual([
        expect.objectContaining({
          data: expect.objectContaining({ provider: 'setu', date: day, kind: 'amount_mismatch', orderId }),
        }),
      ]);
      expect(await events(orderId, 'TransactionSettled')).toHaveLength(0);
      expect(await events(orderId, 'WalletRefunded')).toHaveLength(0);
    },
    TEST_TIMEOUT_MS,
  );
});
