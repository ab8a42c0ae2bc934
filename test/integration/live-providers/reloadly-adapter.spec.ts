import { Logger } from '@nestjs/common';
import { ProviderOrder, ProviderUnavailableError } from '../../../src/application/ports/provider-gateway.port';
import { ReloadlyConfig } from '../../../src/config/service-config';
import { ReloadlyLiveProvider } from '../../../src/infrastructure/providers/reloadly/reloadly-live-provider';
import { RELOADLY_POLL_AFTER_MS } from '../../../src/infrastructure/providers/reloadly/reloadly-provider';
import { ReloadlyTokens } from '../../../src/infrastructure/providers/reloadly/reloadly-tokens';
import { RunningSimulator, startSimulator } from '../../../tools/provider-sim/simulator';

/** The Reloadly adapter's own calls against the simulator over HTTP: tokens, catalog, look-ups, reports and bill payments. */
describe('the Reloadly adapter against the protocol simulator', () => {
  let simulator: RunningSimulator;
  let config: ReloadlyConfig;
  let live: ReloadlyLiveProvider;
  const now = new Date();
  const bill = (orderId: string, consumerNumber: string, billerId = 1005): ProviderOrder => ({
    orderId,
    amount: '850.50',
    currency: 'INR',
    placedAt: now.toISOString(),
    product: { kind: 'bill_payment', billerId, consumerNumber, billReference: null, params: {} },
    // The route the order was placed with: biller 1005 is the simulator's 301.
    route: billerId === 1005 ? { provider: 'reloadly', upstreamId: '301' } : null,
  });
  const topup = (orderId: string, suffix: string, amount = '199.00'): ProviderOrder => ({
    orderId,
    amount,
    currency: 'INR',
    placedAt: now.toISOString(),
    product: { kind: 'topup', operatorId: 101, phone: `+91987654${suffix}` },
    route: { provider: 'reloadly', upstreamId: '1201' },
  });

  beforeAll(async () => {
    simulator = await startSimulator({
      seed: 3,
      settleAfterMs: 0,
      recentRechargeMs: 0,
      clientId: 'client-a',
      clientSecret: 'secret-a-never-shown',
    });
    config = {
      clientId: 'client-a',
      clientSecret: 'secret-a-never-shown',
      authUrl: simulator.authUrl,
      topupsUrl: simulator.topupsUrl,
      utilitiesUrl: simulator.utilitiesUrl,
      lowFloatThreshold: '500.00',
      reportTimeZone: 'America/New_York',
    };
    live = new ReloadlyLiveProvider(config);
  });
  afterAll(async () => {
    await simulator.close();
  });

  it('reads operators and billers by country and the balance, with one token per audience', async () => {
    const tokens = simulator.state.tokensIssued;
    const [operators, billers, balance, again] = await Promise.all([
      live.api.operatorsByCountry('IN'),
      live.api.billersByCountry('BD'),
      live.api.balance(),
      live.api.operatorsByCountry('SG'),
    ]);
    expect(operators.map((operator) => operator.name)).toContain('Airtel India');
    expect(operators[0]).toMatchObject({
      countryCode: 'IN',
      destinationCurrencyCode: 'INR',
      senderCurrencyCode: 'USD',
      supportsLocalAmounts: true,
      fxRate: '83.25',
    });
    expect(billers.map((biller) => biller.name)).toEqual(['DESCO Prepaid', 'Dhaka WASA']);
    expect(balance).toMatchObject({ balance: '1000', currencyCode: 'USD' });
    expect(again.map((operator) => operator.name)).toContain('Singtel Singapore');
    expect(simulator.state.tokensIssued - tokens).toBe(2); // airtime and utilities, shared by the concurrent calls
  });

  it('pays a bill under referenceId = the order id and follows it to its outcome', async () => {
    expect(await live.provider.submit(bill('ord_bill_ok', '1234560001'), now)).toEqual({
      status: 'succeeded',
      operatorRef: expect.any(String),
    });
    expect(await live.provider.submit(bill('ord_bill_late', '1234560004'), now)).toEqual({
      status: 'pending',
      providerReference: expect.any(String),
      pollAfterMs: RELOADLY_POLL_AFTER_MS,
    });
    expect(await live.provider.poll(bill('ord_bill_late', '1234560004'), now)).toEqual({
      status: 'failed',
      reason: expect.stringContaining('FAILED'),
      basis: 'provider_record',
    });
    expect(await live.provider.submit(bill('ord_bill_refused', '1234560002'), now)).toEqual({
      status: 'failed',
      reason: expect.stringContaining('INVALID_AMOUNT'),
      basis: 'refused',
    });
    expect(await live.provider.submit(bill('ord_bill_unrouted', '1234560001', 9999), now)).toEqual({
      status: 'failed',
      reason: 'no reloadly route for biller 9999',
      basis: 'not_sent',
    });
    // A biller Reloadly does not list is not paid.
    expect(
      await live.provider.submit(
        { ...bill('ord_bill_no_biller', '1234560001'), route: { provider: 'reloadly', upstreamId: '999' } },
        now,
      ),
    ).toEqual({ status: 'failed', reason: 'reloadly has no biller 999; the payment was not sent', basis: 'not_sent' });
    // An order in doubt (its answer lost, a retried run) is looked up, never paid again.
    expect(
      await live.provider.submit({ ...bill('ord_bill_ok', '1234560001'), inDoubtSince: now.toISOString() }, now),
    ).toMatchObject({ status: 'succeeded' });
    expect(await live.provider.submit({ ...bill('ord_bill_ok', '1234560001'), resubmission: true }, now)).toMatchObject(
      { status: 'succeeded' },
    );
    expect(
      simulator.state.submissions
        .filter((submission) => submission.reference === 'ord_bill_ok')
        .map((submission) => submission.errorCode),
    ).toEqual([null]);
    expect(simulator.state.transactions.filter((transaction) => transaction.reference === 'ord_bill_ok')).toHaveLength(
      1,
    );
    expect(await live.api.paymentByReferenceId('ord_bill_ok')).toMatchObject({
      referenceId: 'ord_bill_ok',
      status: 'SUCCESSFUL',
      amount: '850.5',
      amountCurrencyCode: 'INR',
      billerId: 301,
    });
  });

  it('a topup sent again under the same customIdentifier is refused upstream and answered from the look-up: paid once', async () => {
    const first = await live.provider.submit(topup('ord_twice', '0001'), now);
    expect(first).toMatchObject({ status: 'succeeded' });
    expect(await live.provider.submit(topup('ord_twice', '0001'), now)).toEqual(first);
    expect(
      simulator.state.submissions
        .filter((submission) => submission.reference === 'ord_twice')
        .map((submission) => submission.errorCode),
    ).toEqual([null, 'DUPLICATE_CUSTOM_IDENTIFIER']);
    expect(simulator.state.transactions.filter((transaction) => transaction.reference === 'ord_twice')).toHaveLength(1);
  });

  it('follows a processing topup by Reloadly’s transaction id; a topup to an operator Reloadly does not have is not sent', async () => {
    const pending = await live.provider.submit(topup('ord_processing', '0003'), now);
    expect(pending).toEqual({
      status: 'pending',
      providerReference: expect.stringMatching(/^\d+$/),
      pollAfterMs: RELOADLY_POLL_AFTER_MS,
    });
    const providerReference = pending.status === 'pending' ? pending.providerReference : null;
    expect(await live.provider.poll({ ...topup('ord_processing', '0003'), providerReference }, now)).toMatchObject({
      status: 'succeeded',
    });
    // A reference the status endpoint does not know: the look-up falls back to the order id.
    expect(await live.provider.poll({ ...topup('ord_processing', '0003'), providerReference: '1' }, now)).toMatchObject(
      { status: 'succeeded' },
    );

    const unknownOperator: ProviderOrder = {
      ...topup('ord_unknown_operator', '0001'),
      product: { kind: 'topup', operatorId: 109, phone: '+919876540001' },
      route: { provider: 'reloadly', upstreamId: '9999' },
    };
    expect(await live.provider.submit(unknownOperator, now)).toEqual({
      status: 'failed',
      reason: 'reloadly has no operator 9999; the topup was not sent',
      basis: 'not_sent',
    });
    expect(
      simulator.state.submissions.filter((submission) => submission.reference === 'ord_unknown_operator'),
    ).toHaveLength(0);
  });

  it('sends the recipient as country code and national number, and the amount in the local currency, in every corridor', async () => {
    const corridorTopup = (
      orderId: string,
      operatorId: number,
      upstreamId: string,
      phone: string,
      amount: string,
      currency: 'BDT' | 'SGD',
    ): ProviderOrder => ({
      orderId,
      amount,
      currency,
      placedAt: now.toISOString(),
      product: { kind: 'topup', operatorId, phone },
      route: { provider: 'reloadly', upstreamId },
    });
    expect(
      await live.provider.submit(corridorTopup('ord_bd', 201, '1401', '+8801712340001', '500.00', 'BDT'), now),
    ).toMatchObject({ status: 'succeeded' });
    expect(
      await live.provider.submit(corridorTopup('ord_sg', 301, '1601', '+6581230001', '10.50', 'SGD'), now),
    ).toMatchObject({ status: 'succeeded' });
    const sent = simulator.state.transactions.filter(
      (transaction) => transaction.reference === 'ord_bd' || transaction.reference === 'ord_sg',
    );
    expect(
      sent.map(({ country, target, localAmount, localCurrency }) => ({ country, target, localAmount, localCurrency })),
    ).toEqual([
      { country: 'BD', target: '1712340001', localAmount: 500_000_000n, localCurrency: 'BDT' },
      { country: 'SG', target: '81230001', localAmount: 10_500_000n, localCurrency: 'SGD' },
    ]);
  });

  it('looks topups up by transaction id and customIdentifier, and reports a time range', async () => {
    expect(await live.provider.submit(topup('ord_report_1', '0001'), now)).toMatchObject({ status: 'succeeded' });
    const found = await live.api.topupByCustomIdentifier('ord_report_1');
    // As Reloadly's reference describes it, requestedAmount is in the account's currency (the cost at the
    // operator's rate: 199 / 83.25), the delivered amount in the recipient's.
    expect(found).toMatchObject({
      customIdentifier: 'ord_report_1',
      status: 'SUCCESSFUL',
      requestedAmount: '2.39',
      requestedAmountCurrencyCode: 'USD',
      deliveredAmount: '199',
      deliveredAmountCurrencyCode: 'INR',
      operatorId: 1201,
    });
    expect(await live.api.topupByTransactionId(found!.transactionId!)).toMatchObject({
      transactionId: found!.transactionId,
      status: 'SUCCESSFUL',
    });
    expect(await live.api.topupByTransactionId('999999999')).toBeNull();
    expect(await live.api.topupByCustomIdentifier('ord_never_sent')).toBeNull();
    const range = { from: new Date(Date.now() - 60_000), to: new Date(Date.now() + 60_000) };
    expect((await live.api.topupReport(range)).map((item) => item.customIdentifier)).toContain('ord_report_1');
    expect((await live.api.paymentReport(range)).map((item) => item.referenceId)).toContain('ord_bill_ok');
    expect(
      await live.api.topupReport({ from: new Date(Date.now() - 120_000), to: new Date(Date.now() - 60_000) }),
    ).toEqual([]);
  });

  it('reports the float with the low-float threshold, and warns once when it falls below it', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    try {
      expect(await live.live(true)).toMatchObject({
        provider: 'reloadly',
        currency: 'USD',
        lowFloatThreshold: '500.00',
        low: false,
        error: null,
      });
      simulator.state.balance = 20_000_000n; // 20 USD
      expect(await live.live(true)).toMatchObject({ balance: '20', low: true });
      expect(await live.live(true)).toMatchObject({ balance: '20', low: true });
      expect(warn.mock.calls.map(([message]) => String(message))).toEqual([
        'reloadly float is low: 20 USD, below the threshold of 500.00 USD; top it up before orders are refused',
      ]);
    } finally {
      simulator.state.balance = 1_000_000_000n;
      warn.mockRestore();
    }
  });

  it('refuses nothing on a guess when the token endpoint turns the credentials down, and never shows the secret', async () => {
    const wrong = new ReloadlyLiveProvider({ ...config, clientSecret: 'wrong-secret-never-shown' });
    const failure = await wrong.provider.submit(topup('ord_wrong_credentials', '0001'), now).then(
      () => null,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(ProviderUnavailableError);
    expect((failure as Error).message).not.toContain('wrong-secret-never-shown');
    expect(
      simulator.state.submissions.filter((submission) => submission.reference === 'ord_wrong_credentials'),
    ).toHaveLength(0);
  });

  it('names the hosts it uses in the start-up log, never the secret', async () => {
    const logged: string[] = [];
    const log = jest
      .spyOn(Logger.prototype, 'log')
      .mockImplementation((message: unknown) => void logged.push(String(message)));
    const warn = jest
      .spyOn(Logger.prototype, 'warn')
      .mockImplementation((message: unknown) => void logged.push(String(message)));
    try {
      const quiet = new ReloadlyLiveProvider({ ...config, clientSecret: 'wrong-secret-never-shown' });
      await quiet.live(true);
      await quiet.provider.submit(topup('ord_logged', '0001'), now).catch(() => undefined);
    } finally {
      log.mockRestore();
      warn.mockRestore();
    }
    expect(logged.join('\n')).toContain(`airtime ${simulator.topupsUrl}`);
    expect(logged.join('\n')).not.toContain('wrong-secret-never-shown');
  });

  it('keeps a token until shortly before it expires, then asks for one new token', async () => {
    let at = 0;
    const tokens = new ReloadlyTokens(config, () => at);
    const audience = simulator.topupsUrl;
    const first = await tokens.token(audience);
    at = 3_000_000; // 50 minutes into a one-hour token
    expect(await tokens.token(audience)).toBe(first);
    at = 3_600_000 - 30_000; // within the last minute
    const second = await tokens.token(audience);
    expect(second).not.toBe(first);
    expect(await tokens.token(audience)).toBe(second);
    expect(tokens.tokensRequested).toBe(2);
  });

  it('fails an order, without sending it, whose route gives no Reloadly operator id', async () => {
    const unrouted = {
      ...topup('ord_route_not_reloadly', '0001'),
      route: { provider: 'reloadly', upstreamId: 'airtel' },
    };
    expect(await live.provider.submit(unrouted, now)).toEqual({
      status: 'failed',
      reason: 'no reloadly route for operator 101',
      basis: 'not_sent',
    });
    expect(
      simulator.state.submissions.filter((submission) => submission.reference === 'ord_route_not_reloadly'),
    ).toHaveLength(0);
  });
});
