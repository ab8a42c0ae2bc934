import {
  ProviderNotSentError,
  ProviderOrder,
  ProviderUnavailableError,
} from '../../../src/application/ports/provider-gateway.port';
import { ReloadlyConfig } from '../../../src/config/service-config';
import { RELOADLY_DELIVERY_HORIZON_MS } from '../../../src/infrastructure/providers/reloadly/reloadly-horizons';
import { ReloadlyLiveProvider } from '../../../src/infrastructure/providers/reloadly/reloadly-live-provider';
import { RunningSimulator, SimulatorOptions, startSimulator } from '../../../tools/provider-sim/simulator';
import { waitFor } from '../../support/wait-for';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

/**
 * The Reloadly adapter against answers that decide nothing or are not what they seem, through the simulator over HTTP
 * (docs/decisions/0120-reloadly-absence-after-the-horizon.md).
 */
describe('the Reloadly adapter and answers that are not what they seem (simulator over HTTP)', () => {
  const simulators: RunningSimulator[] = [];
  const start = async (options: SimulatorOptions = {}) => {
    const simulator = await startSimulator({ seed: 12, settleAfterMs: 0, hangMs: 2_000, ...options });
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
  const topup = (orderId: string, suffix: string): ProviderOrder => ({
    orderId,
    amount: '199.00',
    currency: 'INR',
    placedAt: new Date().toISOString(),
    product: { kind: 'topup', operatorId: 101, phone: `+9197${String(++line).padStart(4, '0')}${suffix}` },
    route: { provider: 'reloadly', upstreamId: '1201' },
  });
  const bill = (orderId: string, suffix: string): ProviderOrder => ({
    orderId,
    amount: '850.50',
    currency: 'INR',
    placedAt: new Date().toISOString(),
    product: {
      kind: 'bill_payment',
      billerId: 1005,
      consumerNumber: `12345${String(++line).padStart(2, '0')}${suffix}`,
      billReference: null,
      params: {},
    },
    route: { provider: 'reloadly', upstreamId: '301' },
  });
  const failure = (work: Promise<unknown>) =>
    work.then(
      () => null,
      (error: unknown) => error,
    );
  const sentUnder = (simulator: RunningSimulator, orderId: string) =>
    simulator.state.submissions.filter((submission) => submission.reference === orderId);
  const inDoubt = (order: ProviderOrder): ProviderOrder => ({
    ...order,
    resubmission: true,
    inDoubtSince: order.placedAt,
  });

  it('a send answered 200 with an HTML page is no answer: the order is in doubt, never refused, and its look-up decides', async () => {
    const { simulator, live } = await start();
    // Recorded upstream, answered with a page: the look-up that follows finds the topup.
    expect(await live.provider.submit(topup('ord_html_recorded', '0020'), new Date())).toMatchObject({
      status: 'succeeded',
    });
    expect(sentUnder(simulator, 'ord_html_recorded')).toHaveLength(1);

    // A page before anything was recorded (the float's read and the send both get one): in doubt.
    const order = topup('ord_html_send', '0001');
    simulator.state.faults.htmlNext = 2;
    const first = await failure(live.provider.submit(order, new Date()));
    expect(first).toBeInstanceOf(ProviderUnavailableError);
    expect(first).not.toBeInstanceOf(ProviderNotSentError);
    expect((first as Error).message).toContain('HTTP 200 with something that is not the transaction');
    expect(await live.provider.poll(inDoubt(order), new Date())).toMatchObject({ status: 'unknown' });
  });

  it('look-ups answered 200 with an HTML page prove nothing, even past the horizon: no absence is confirmed on them', async () => {
    const { simulator, live } = await start();
    const order = inDoubt(topup('ord_html_look_up', '0001'));
    const pastHorizon = new Date(Date.parse(order.placedAt) + RELOADLY_DELIVERY_HORIZON_MS.topup);
    simulator.state.faults.htmlNext = 1;
    const unanswered = await failure(live.provider.poll(order, pastHorizon));
    expect(unanswered).toBeInstanceOf(ProviderUnavailableError);
    expect((unanswered as Error).message).toContain(
      'GET /topups/reports/transactions answered something that is not a page of a list',
    );
    expect(await live.provider.poll(order, pastHorizon)).toMatchObject({
      status: 'failed',
      basis: 'absence_confirmed',
    });
  });

  it('a topup is not sent when its operator’s entry cannot be read (nothing says it takes a local amount): not sent, sent later', async () => {
    const { simulator, live } = await start();
    const order = topup('ord_operator_unread', '0001');
    simulator.state.faults.htmlNext = 1; // the operator's entry, the first call of this adapter
    const refused = await failure(live.provider.submit(order, new Date()));
    expect(refused).toBeInstanceOf(ProviderNotSentError);
    expect((refused as Error).message).toMatch(
      /^reloadly operator 1201 could not be read \(.+\); the order was not sent/,
    );
    expect(sentUnder(simulator, 'ord_operator_unread')).toHaveLength(0);
    expect(await live.provider.submit(order, new Date())).toMatchObject({ status: 'succeeded' });
    expect(sentUnder(simulator, 'ord_operator_unread')).toHaveLength(1);
  });

  it('a bill is not paid when its biller’s entry cannot be read: not sent, and paid later once it can', async () => {
    const { simulator, live } = await start();
    const order = bill('ord_biller_unread', '0001');
    simulator.state.faults.htmlNext = 1;
    const refused = await failure(live.provider.submit(order, new Date()));
    expect(refused).toBeInstanceOf(ProviderNotSentError);
    expect((refused as Error).message).toMatch(/^reloadly biller 301 could not be read/);
    expect(sentUnder(simulator, 'ord_biller_unread')).toHaveLength(0);
    expect(await live.provider.submit(order, new Date())).toMatchObject({ status: 'succeeded' });
  });

  it('a 401 TOKEN_EXPIRED on a payment (the token older than Reloadly allows) gets a new token and the same send once more: paid once', async () => {
    const { simulator, live } = await start({ tokenMaxAgeSeconds: 60 });
    expect(await live.provider.submit(bill('ord_token_fresh', '0001'), new Date())).toMatchObject({
      status: 'succeeded',
    });
    simulator.clock.advance(61_000);
    await live.api.balance(); // the airtime token is replaced here; the utilities one is left to the send
    const issued = simulator.state.tokensIssued;
    const refusedBefore = simulator.state.unauthorized.length;

    expect(await live.provider.submit(bill('ord_token_expired', '0001'), new Date())).toMatchObject({
      status: 'succeeded',
    });
    expect(simulator.state.unauthorized.slice(refusedBefore)).toEqual([
      { path: 'POST /utilities/pay', errorCode: 'TOKEN_EXPIRED' },
    ]);
    expect(simulator.state.tokensIssued - issued).toBe(1);
    expect(sentUnder(simulator, 'ord_token_expired')).toHaveLength(1);
    expect(simulator.state.transactions.filter((item) => item.reference === 'ord_token_expired')).toHaveLength(1);
  });

  it('an order met by 401s however new the token is was not processed: not sent, never in doubt', async () => {
    const { simulator, live } = await start({ tokenMaxAgeSeconds: 0 });
    const refused = await failure(live.provider.submit(topup('ord_token_refused', '0001'), new Date()));
    expect(refused).toBeInstanceOf(ProviderNotSentError);
    expect((refused as Error).message).toContain('HTTP 401 TOKEN_EXPIRED');
    expect(sentUnder(simulator, 'ord_token_refused')).toHaveLength(0);
  });

  it('a 429 whose Retry-After is an HTTP date: not sent, the time to wait read from the date, and sent once after it', async () => {
    const { simulator, live } = await start({ retryAfterSeconds: 1, retryAfterAsDate: true });
    const order = topup('ord_rate_limited_date', '0021');
    const refused = await failure(live.provider.submit(order, new Date()));
    expect(refused).toBeInstanceOf(ProviderNotSentError);
    const { retryAfterMs } = refused as ProviderNotSentError;
    expect(retryAfterMs).toBeGreaterThanOrEqual(0);
    expect(retryAfterMs).toBeLessThanOrEqual(1_000);
    await waitFor(() => live.api.http.rateLimit.resumesAt('topups') === null, { what: 'the rate limit to reset' });
    expect(await live.provider.submit(order, new Date())).toMatchObject({ status: 'succeeded' });
    expect(sentUnder(simulator, 'ord_rate_limited_date').map((sent) => sent.answer)).toEqual([429, 200]);
    expect(simulator.state.transactions.filter((item) => item.reference === 'ord_rate_limited_date')).toHaveLength(1);
  });

  it('a topup delivered short, or in another currency, is a mismatch with Reloadly’s transaction, dated as Reloadly dates it', async () => {
    const { simulator, live } = await start();
    const sentAt = Date.now();
    const short = await live.provider.submit(topup('ord_delivered_less', '0022'), new Date());
    const [transaction] = simulator.state.transactions.filter((item) => item.reference === 'ord_delivered_less');
    expect(short).toEqual({
      status: 'mismatch',
      reason: `reloadly topup ${transaction.id} SUCCESSFUL, but it delivered 179.1 INR, less than the order's 199.00 INR`,
      operatorRef: transaction.operatorTransactionId,
      upstream: {
        customIdentifier: 'ord_delivered_less',
        transactionId: String(transaction.id),
        status: 'succeeded',
        amount: '179.1',
        currency: 'INR',
        at: expect.any(String),
      },
    });
    const at = short.status === 'mismatch' ? Date.parse(short.upstream.at) : 0;
    expect(Math.abs(at - sentAt)).toBeLessThan(5_000);

    expect(await live.provider.submit(topup('ord_delivered_usd', '0023'), new Date())).toMatchObject({
      status: 'mismatch',
      reason: expect.stringMatching(/it delivered 2\.39 USD, not an amount in INR$/),
      upstream: { amount: '2.39', currency: 'USD' },
    });
  });

  it('a payment answered SUCCESSFUL is checked as GET /transactions/{id} shows it: paid short is a mismatch', async () => {
    const { live } = await start();
    expect(await live.provider.submit(bill('ord_paid_less', '0022'), new Date())).toMatchObject({
      status: 'mismatch',
      reason: expect.stringMatching(
        /^reloadly payment \d+ SUCCESSFUL \(.+\), but it paid 765\.45 INR, not the order's 850\.50 INR$/,
      ),
      upstream: { customIdentifier: 'ord_paid_less', amount: '765.45', currency: 'INR', status: 'succeeded' },
    });
  });

  it('a topup PROCESSING for hours is followed until Reloadly decides it on its own clock: success, or refunded', async () => {
    const { simulator, live } = await start({ longSettleAfterMs: 6 * HOUR_MS });
    const succeeds = topup('ord_long_success', '0017');
    const refunded = topup('ord_long_refunded', '0019');
    const pending = [
      await live.provider.submit(succeeds, new Date()),
      await live.provider.submit(refunded, new Date()),
    ];
    const references = pending.map((answer) => (answer.status === 'pending' ? answer.providerReference : null));
    expect(references).toEqual([expect.stringMatching(/^\d+$/), expect.stringMatching(/^\d+$/)]);
    const followed = [
      { ...succeeds, providerReference: references[0] },
      { ...refunded, providerReference: references[1] },
    ];

    simulator.clock.advance(6 * HOUR_MS - MINUTE_MS);
    for (const order of followed)
      expect(await live.provider.poll(order, new Date())).toMatchObject({ status: 'pending' });
    simulator.clock.advance(MINUTE_MS);
    expect(await live.provider.poll(followed[0], new Date())).toMatchObject({ status: 'succeeded' });
    expect(await live.provider.poll(followed[1], new Date())).toMatchObject({
      status: 'failed',
      basis: 'provider_record',
    });
  });

  it('a topup whose answer never came, and that the report lists only 75 s later, is unknown until then, and then settled', async () => {
    const { simulator, live } = await start({ reportLagMs: 75_000 });
    const order = topup('ord_report_lag', '0016');
    await live.api.balance(); // a token first, so that the 300 ms below cover the send
    const first = await failure(live.provider.submit(order, new Date(), AbortSignal.timeout(300)));
    expect(first).toBeInstanceOf(ProviderUnavailableError);
    expect(first).not.toBeInstanceOf(ProviderNotSentError);

    simulator.clock.advance(74_000);
    expect(await live.provider.poll(inDoubt(order), new Date())).toMatchObject({ status: 'unknown' });
    simulator.clock.advance(1_000);
    expect(await live.provider.poll(inDoubt(order), new Date())).toMatchObject({ status: 'succeeded' });
    expect(sentUnder(simulator, 'ord_report_lag')).toHaveLength(1);
  });
});
