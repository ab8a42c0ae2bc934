import {
  ProviderNotSentError,
  ProviderOrder,
  ProviderUnavailableError,
} from '../../../src/application/ports/provider-gateway.port';
import { ReloadlyConfig } from '../../../src/config/service-config';
import { ReloadlyLiveProvider } from '../../../src/infrastructure/providers/reloadly/reloadly-live-provider';
import { RELOADLY_DELIVERY_HORIZON_MS } from '../../../src/infrastructure/providers/reloadly/reloadly-horizons';
import { RELOADLY_POLL_AFTER_MS } from '../../../src/infrastructure/providers/reloadly/reloadly-provider';
import { instantOfReportTime } from '../../../src/infrastructure/providers/reloadly/report-time';
import { RunningSimulator, SimulatorOptions, startSimulator } from '../../../tools/provider-sim/simulator';
import { waitFor } from '../../support/wait-for';

const INVISIBLE_MS = 400;
const MAX_PAGE_SIZE = 3;
const TOPUP_HORIZON_MS = RELOADLY_DELIVERY_HORIZON_MS.topup;
const BILL_HORIZON_MS = RELOADLY_DELIVERY_HORIZON_MS.bill_payment;

/**
 * The Reloadly adapter and an order whose attempt may have reached Reloadly, against the protocol simulator over HTTP:
 * attempts in flight, the two-minute rule, answers flat and wrapped, 429s, reports in New York time read to their last
 * page, and absence confirmed only past the product's horizon (docs/decisions/0120-reloadly-absence-after-the-horizon.md).
 */
describe('the Reloadly adapter with orders in doubt (simulator over HTTP)', () => {
  const simulators: RunningSimulator[] = [];
  const start = async (options: SimulatorOptions = {}) => {
    const simulator = await startSimulator({
      seed: 11,
      settleAfterMs: 0,
      hangMs: 2_000,
      invisibleMs: INVISIBLE_MS,
      maxPageSize: MAX_PAGE_SIZE,
      ...options,
    });
    simulators.push(simulator);
    const config: ReloadlyConfig = {
      clientId: 'client',
      clientSecret: 'secret',
      authUrl: simulator.authUrl,
      topupsUrl: simulator.topupsUrl,
      utilitiesUrl: simulator.utilitiesUrl,
      lowFloatThreshold: null,
      reportTimeZone: 'America/New_York',
    };
    return { simulator, live: new ReloadlyLiveProvider(config) };
  };
  afterAll(async () => {
    for (const simulator of simulators) await simulator.close();
  });

  let line = 0;
  /** A topup to a number of its own (the two-minute rule is on), ending in the scenario's suffix. */
  const topup = (orderId: string, suffix: string, placedAt = new Date()): ProviderOrder => ({
    orderId,
    amount: '199.00',
    currency: 'INR',
    placedAt: placedAt.toISOString(),
    product: { kind: 'topup', operatorId: 101, phone: `+9198${String(++line).padStart(4, '0')}${suffix}` },
    route: { provider: 'reloadly', upstreamId: '1201' },
  });
  const bill = (orderId: string, accountNumber: string): ProviderOrder => ({
    orderId,
    amount: '850.50',
    currency: 'INR',
    placedAt: new Date().toISOString(),
    product: { kind: 'bill_payment', billerId: 1005, consumerNumber: accountNumber, billReference: null, params: {} },
    route: { provider: 'reloadly', upstreamId: '301' },
  });
  const failure = (work: Promise<unknown>) =>
    work.then(
      () => null,
      (error: unknown) => error,
    );
  const sentUnder = (simulator: RunningSimulator, orderId: string) =>
    simulator.state.submissions.filter((submission) => submission.reference === orderId);
  const visible = (simulator: RunningSimulator, orderId: string) => () =>
    simulator.state.transactions.some((item) => item.reference === orderId && item.visibleAt <= Date.now());

  it('an attempt in flight, invisible to look-ups: the order stays unknown (never sent again, never failed) until it shows, and then its status decides', async () => {
    const { simulator, live } = await start();
    const order = topup('ord_in_flight', '0012');
    // A token first, so that the 300 ms below cover the send alone, even on a busy machine.
    await live.api.balance();
    const first = await failure(live.provider.submit(order, new Date(), AbortSignal.timeout(300)));
    expect(first).toBeInstanceOf(ProviderUnavailableError);
    expect(first).not.toBeInstanceOf(ProviderNotSentError);

    const inDoubt = { ...order, resubmission: true, inDoubtSince: new Date().toISOString() };
    const horizon = new Date(Date.parse(order.placedAt) + TOPUP_HORIZON_MS).toISOString();
    expect(await live.provider.submit(inDoubt, new Date())).toEqual({
      status: 'unknown',
      reason: `reloadly has no transaction under ord_in_flight yet; it may still show one until ${horizon}`,
      retryAfterMs: RELOADLY_POLL_AFTER_MS,
    });
    // A send would now meet the two-minute rule (and a repeated identifier nobody can see yet): none is made.
    expect(sentUnder(simulator, 'ord_in_flight')).toHaveLength(1);

    await waitFor(visible(simulator, 'ord_in_flight'), { what: 'the attempt in flight to show' });
    expect(await live.provider.poll(inDoubt, new Date())).toMatchObject({ status: 'succeeded' });
    expect(sentUnder(simulator, 'ord_in_flight')).toHaveLength(1);
  });

  it('the two-minute rule refuses a second topup to the same number: a refusal of that attempt only', async () => {
    const { live } = await start();
    const first = topup('ord_first_of_two', '0001');
    expect(await live.provider.submit(first, new Date())).toMatchObject({ status: 'succeeded' });
    const second = { ...topup('ord_second_of_two', '0001'), product: first.product };
    expect(await live.provider.submit(second, new Date())).toEqual({
      status: 'failed',
      reason: expect.stringContaining('PHONE_RECENTLY_RECHARGED'),
      basis: 'refused',
    });
  });

  it('TOPUP_TRANSACTION_FAILED is not a refusal: the outcome is unknown, and the attempt it answered shows later as successful', async () => {
    const { simulator, live } = await start();
    const order = topup('ord_failed_but_paid', '0015');
    const first = await failure(live.provider.submit(order, new Date()));
    expect(first).toBeInstanceOf(ProviderUnavailableError);
    expect((first as Error).message).toContain('TOPUP_TRANSACTION_FAILED');
    await waitFor(visible(simulator, 'ord_failed_but_paid'), { what: 'the recorded topup to show' });
    expect(await live.provider.poll({ ...order, inDoubtSince: new Date().toISOString() }, new Date())).toMatchObject({
      status: 'succeeded',
    });
  });

  it('a refunded topup whose status answer carries no transaction fails on Reloadly’s own record', async () => {
    const { live } = await start();
    const order = topup('ord_refunded', '0013');
    const pending = await live.provider.submit(order, new Date());
    expect(pending).toMatchObject({ status: 'pending', providerReference: expect.stringMatching(/^\d+$/) });
    const providerReference = pending.status === 'pending' ? pending.providerReference : null;
    expect(await live.api.topupByTransactionId(providerReference!)).toMatchObject({
      transactionId: providerReference,
      status: 'REFUNDED',
      customIdentifier: null,
    });
    expect(await live.provider.poll({ ...order, providerReference }, new Date())).toEqual({
      status: 'failed',
      reason: expect.stringMatching(/^reloadly topup \d+ REFUNDED \(TOPUP_REFUNDED /),
      basis: 'provider_record',
    });
  });

  it('reads a flat status answer as well as the wrapper', async () => {
    const { live } = await start({ flatStatus: true });
    const order = topup('ord_flat', '0003');
    const pending = await live.provider.submit(order, new Date());
    const providerReference = pending.status === 'pending' ? pending.providerReference : null;
    expect(providerReference).not.toBeNull();
    expect(await live.provider.poll({ ...order, providerReference }, new Date())).toMatchObject({
      status: 'succeeded',
    });
    const refunded = topup('ord_flat_refunded', '0013');
    const again = await live.provider.submit(refunded, new Date());
    const reference = again.status === 'pending' ? again.providerReference : null;
    expect(await live.provider.poll({ ...refunded, providerReference: reference }, new Date())).toMatchObject({
      status: 'failed',
      basis: 'provider_record',
    });
  });

  it('a 429 on a send was not processed: not sent, to be sent again after Retry-After; calls wait for the reset, and an order never taken is failed only past its horizon, when the report confirms it', async () => {
    const { simulator, live } = await start({ retryAfterSeconds: 1 });
    const placed = new Date();
    const order = topup('ord_rate_limited', '0014', placed);
    const first = await failure(live.provider.submit(order, placed));
    expect(first).toBeInstanceOf(ProviderNotSentError);
    expect(first).toMatchObject({ retryAfterMs: 1_000 });
    expect((first as Error).message).toContain('RATE_LIMIT_REACHED');
    expect(live.api.http.rateLimit.resumesAt('topups')).not.toBeNull();

    // Until the reset nothing goes to Reloadly: another order is not sent (and says so).
    const calls = simulator.state.submissions.length;
    const blocked = await failure(live.provider.submit(topup('ord_behind_the_limit', '0001'), new Date()));
    expect(blocked).toBeInstanceOf(ProviderNotSentError);
    expect(simulator.state.submissions.length).toBe(calls);

    await waitFor(() => live.api.http.rateLimit.resumesAt('topups') === null, { what: 'the rate limit to reset' });
    const inDoubt = { ...order, resubmission: true, inDoubtSince: placed.toISOString() };
    expect(await live.provider.poll(inDoubt, new Date())).toMatchObject({ status: 'unknown' });
    expect(await live.provider.poll(inDoubt, new Date(placed.getTime() + TOPUP_HORIZON_MS - 1))).toMatchObject({
      status: 'unknown',
    });
    const afterHorizon = new Date(placed.getTime() + TOPUP_HORIZON_MS);
    expect(await live.provider.poll(inDoubt, afterHorizon)).toEqual({
      status: 'failed',
      reason: expect.stringMatching(
        /^reloadly has no transaction under ord_rate_limited: its topup report from .+ to .+ \(read in America\/New_York, every page\) shows none, past the 24 h horizon after the order was placed$/,
      ),
      basis: 'absence_confirmed',
    });
    expect(sentUnder(simulator, 'ord_rate_limited')).toHaveLength(1);
  });

  it('a report that answers 404 "try again later" is no proof of absence: the look-up stays open', async () => {
    const { simulator, live } = await start();
    const placed = new Date(Date.now() - TOPUP_HORIZON_MS - 1_000);
    const order = { ...topup('ord_never_arrived', '0001', placed), inDoubtSince: placed.toISOString() };
    simulator.state.faults.reportsUnavailableNext = 1;
    const unavailable = await failure(live.provider.poll(order, new Date()));
    expect(unavailable).toBeInstanceOf(ProviderUnavailableError);
    expect((unavailable as Error).message).toContain('HTTP 404');
    expect(await live.provider.poll(order, new Date())).toMatchObject({
      status: 'failed',
      basis: 'absence_confirmed',
    });
  });

  it('a bill payment that never arrived is failed only past its 48 h horizon, when the utility transactions confirm it', async () => {
    const { live } = await start();
    const order = { ...bill('ord_bill_never_arrived', '1234560001'), inDoubtSince: new Date().toISOString() };
    const placed = Date.parse(order.placedAt);
    // An empty report inside the horizon proves nothing: a topup's day has passed, the payment's two have not.
    expect(await live.provider.poll(order, new Date(placed + TOPUP_HORIZON_MS))).toMatchObject({ status: 'unknown' });
    expect(await live.provider.poll(order, new Date(placed + BILL_HORIZON_MS - 1))).toMatchObject({
      status: 'unknown',
    });
    expect(await live.provider.poll(order, new Date(placed + BILL_HORIZON_MS))).toEqual({
      status: 'failed',
      reason: expect.stringMatching(
        /^reloadly has no transaction under ord_bill_never_arrived: its utility transactions from .+ shows none, past the 48 h horizon after the order was placed$/,
      ),
      basis: 'absence_confirmed',
    });
  });

  it('an order Reloadly acknowledged is never taken as absent, even past its horizon: a 404 on its status means "not there yet"', async () => {
    const { live } = await start();
    const placed = new Date(Date.now() - 2 * TOPUP_HORIZON_MS);
    const order = { ...topup('ord_acknowledged', '0001', placed), providerReference: '999999' };
    expect(await live.provider.poll({ ...order, inDoubtSince: placed.toISOString() }, new Date())).toEqual({
      status: 'unknown',
      reason: 'reloadly does not show transaction 999999 (ord_acknowledged) just now',
      retryAfterMs: RELOADLY_POLL_AFTER_MS,
    });
  });

  it('reads every page of a report by totalPages, though Reloadly gives fewer items than asked', async () => {
    const { simulator, live } = await start();
    for (let i = 1; i <= 2 * MAX_PAGE_SIZE + 1; i++)
      expect(await live.provider.submit(topup(`ord_paged_${i}`, '0001'), new Date())).toMatchObject({
        status: 'succeeded',
      });
    const range = { from: new Date(Date.now() - 60_000), to: new Date(Date.now() + 60_000) };
    const report = await live.api.topupReport(range);
    expect(report.map((item) => item.customIdentifier)).toEqual(
      expect.arrayContaining(Array.from({ length: 2 * MAX_PAGE_SIZE + 1 }, (_, i) => `ord_paged_${i + 1}`)),
    );
    // The last order sits on the third page of three.
    expect(report.length).toBeGreaterThan(2 * MAX_PAGE_SIZE);
    expect(simulator.state.transactions.length).toBe(report.length);
  });

  it('reads utility transactions given as plain arrays page by page, whatever the filter, and takes an unreadable item of the order as no proof of absence', async () => {
    const { simulator, live } = await start({ plainUtilityReports: true, ignoreReferenceFilter: true });
    const pay = (referenceId: string) =>
      live.api.payBill({
        billerId: 301,
        subscriberAccountNumber: '1234560001',
        amount: '850.50',
        useLocalAmount: true,
        referenceId,
      });
    for (let i = 1; i <= 2 * MAX_PAGE_SIZE + 1; i++)
      expect(await pay(`ord_plain_${i}`)).toMatchObject({ kind: 'accepted' });
    // The list ignores the referenceId and gives three items a page: the last payment is on the third page.
    const last = `ord_plain_${2 * MAX_PAGE_SIZE + 1}`;
    expect(await live.api.paymentByReferenceId(last)).toMatchObject({ referenceId: last });
    expect(await live.api.paymentByReferenceId('ord_plain_never_sent')).toBeNull();
    // Listed without a status, the order's item reads as no payment: that is no proof that it is absent.
    const listed = simulator.state.transactions.find((transaction) => transaction.reference === last);
    Object.assign(listed!, { status: null });
    expect(await failure(live.api.paymentByReferenceId(last))).toBeInstanceOf(ProviderUnavailableError);
  });

  it('writes report ranges and reads report dates in the report’s time zone (New York), not as UTC', async () => {
    const { simulator, live } = await start();
    const sent = new Date();
    expect(await live.provider.submit(topup('ord_dated', '0001'), sent)).toMatchObject({ status: 'succeeded' });
    const found = await live.api.topupByCustomIdentifier('ord_dated');
    const at = instantOfReportTime(found!.transactionDate!, 'America/New_York')!.getTime();
    expect(Math.abs(at - sent.getTime())).toBeLessThan(5_000);
    // Read as UTC the same date would be 4 or 5 hours early: the mistake this setting prevents.
    expect(sent.getTime() - instantOfReportTime(found!.transactionDate!, 'UTC')!.getTime()).toBeGreaterThan(
      3 * 3_600_000,
    );

    const transactions = await live.backOffice.transactions(
      new Date(Date.now() - 60_000),
      new Date(Date.now() + 60_000),
    );
    const dated = transactions.find((transaction) => transaction.customIdentifier === 'ord_dated');
    expect(Math.abs(Date.parse(dated!.at) - sent.getTime())).toBeLessThan(5_000);
    // A range an hour wide, an hour ago, holds nothing of now — read in New York time as the report is.
    expect(
      (await live.api.topupReport({ from: new Date(Date.now() - 2 * 3_600_000), to: new Date(Date.now() - 3_600_000) }))
        .length,
    ).toBe(0);
    expect(simulator.state.transactions.some((transaction) => transaction.reference === 'ord_dated')).toBe(true);
  });

  it('a repeated referenceId is not refused: the simulator pays a bill twice when asked twice, so an order in doubt is only looked up', async () => {
    const { simulator, live } = await start();
    const request = {
      billerId: 301,
      subscriberAccountNumber: '1234560001',
      amount: '850.50',
      useLocalAmount: true,
      referenceId: 'ord_bill_twice',
    };
    expect(await live.api.payBill(request)).toMatchObject({ kind: 'accepted' });
    expect(await live.api.payBill(request)).toMatchObject({ kind: 'accepted' });
    expect(simulator.state.transactions.filter((item) => item.reference === 'ord_bill_twice')).toHaveLength(2);

    const order = bill('ord_bill_once', '1234560012');
    // Tokens of both audiences first (the float is read on the airtime API), so that the 300 ms cover the calls alone.
    await live.api.balance('utilities');
    await live.api.balance();
    expect(await failure(live.provider.submit(order, new Date(), AbortSignal.timeout(300)))).toBeInstanceOf(
      ProviderUnavailableError,
    );
    expect(await live.provider.submit({ ...order, inDoubtSince: new Date().toISOString() }, new Date())).toMatchObject({
      status: 'unknown',
    });
    await waitFor(visible(simulator, 'ord_bill_once'), { what: 'the payment in flight to show' });
    expect(await live.provider.poll({ ...order, inDoubtSince: new Date().toISOString() }, new Date())).toMatchObject({
      status: 'succeeded',
    });
    expect(sentUnder(simulator, 'ord_bill_once')).toHaveLength(1);
  });
});
