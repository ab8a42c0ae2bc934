import { Logger } from '@nestjs/common';
import {
  BillQuery,
  NoBillDueError,
  ProviderOrder,
  ProviderUnavailableError,
} from '../../../src/application/ports/provider-gateway.port';
import { SetuConfig } from '../../../src/config/service-config';
import { JsonCatalog } from '../../../src/infrastructure/catalog/json-catalog';
import {
  SETU_DELIVERY_HORIZON_MS,
  SETU_POLL_AFTER_MS,
  SETU_RESEND_WINDOW_MS,
} from '../../../src/infrastructure/providers/setu/setu-provider';
import { SetuLiveProvider } from '../../../src/infrastructure/providers/setu/setu-live-provider';
import { RunningSetuSimulator, startSetuSimulator } from '../../../tools/provider-sim/setu/setu-simulator';

const SILENT = new Logger('test');
SILENT.log = () => undefined;

/** The Setu adapter's own calls against the Setu simulator over HTTP: tokens, fetches, payments, look-ups, lists. */
describe('the Setu adapter against the Setu protocol simulator', () => {
  let simulator: RunningSetuSimulator;
  let config: SetuConfig;
  let live: SetuLiveProvider;
  let orders = 0;
  const now = new Date();
  const query = (consumerNumber: string, billerId = 1005, upstreamId = 'BESCOM000KAR01'): BillQuery => ({
    billerId,
    consumerNumber,
    currency: 'INR',
    params: {},
    route: { provider: 'setu', upstreamId },
  });
  const order = (amount: string, providerBillRef: string, consumerNumber: string, placedAt = now): ProviderOrder => ({
    orderId: `ord_${(++orders).toString(16).padStart(24, '0')}`,
    amount,
    currency: 'INR',
    placedAt: placedAt.toISOString(),
    product: { kind: 'bill_payment', billerId: 1005, consumerNumber, billReference: 'x', params: {}, providerBillRef },
    route: { provider: 'setu', upstreamId: 'BESCOM000KAR01' },
  });
  /** Fetches the bill of a consumer, then an order paying exactly it. */
  const fetchedOrder = async (consumerNumber: string) => {
    const bill = await live.provider.fetchBill(query(consumerNumber), now);
    if (!bill?.providerBillRef) throw new Error('no bill');
    return { bill, order: order(bill.amount, bill.providerBillRef, consumerNumber) };
  };
  const paymentsOf = (provider: ProviderOrder) =>
    simulator.state.payments.filter((payment) => payment.paymentRefId === provider.orderId.replace('_', ''));

  beforeAll(async () => {
    simulator = await startSetuSimulator({
      seed: 5,
      settleAfterMs: 0,
      hangMs: 1_500,
      listLagMs: 60_000,
      clientId: 'setu-client',
      clientSecret: 'setu-secret-never-shown',
    });
    config = {
      url: simulator.url,
      clientId: 'setu-client',
      clientSecret: 'setu-secret-never-shown',
      partnerId: simulator.partnerId,
      agentId: 'AX01AI06512391457204',
      agentIp: '124.170.23.24',
      agentMac: '48-4D-7E-CB-DB-6F',
      agentMobile: '9876543210',
      remitterName: 'Partner prepaid wallet',
    };
    live = new SetuLiveProvider(config, new JsonCatalog(), SILENT);
  });
  afterAll(async () => {
    await simulator.close();
  });

  it('fetches a bill through its Processing phase: the amount in rupees, the bill number, the fetch refId kept for the payment', async () => {
    const bill = await live.provider.fetchBill(query('1234560001'), now);
    expect(bill).toEqual({
      customerName: 'Asha Verma',
      amount: '500.00',
      dueDate: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      billPeriod: expect.stringMatching(/^\d{4}-\d{2}$/),
      billReference: expect.stringMatching(/^BILL/),
      overdue: false,
      providerBillRef: expect.any(String),
    });
    const fetched = simulator.state.fetches.get(bill!.providerBillRef!);
    expect(fetched).toMatchObject({ billerId: 'BESCOM000KAR01', consumerNumber: '1234560001', reads: 2 });
    // The consumer number is not a mobile number: the agent's registered one is sent.
    expect(fetched?.mobile).toBe('9876543210');
    expect((await live.provider.fetchBill(query('1234560013'), now))?.overdue).toBe(true);
  });

  it('sends customer parameters under the biller’s own names (MSEDCL: consumer number and billing unit)', async () => {
    const bill = await live.provider.fetchBill(
      { ...query('123456780001', 1006, 'MAHA00000MAH01'), params: { billing_unit: '4521' } },
      now,
    );
    expect(bill?.amount).toBe('500.00');
  });

  it('tells "no bill due", an unknown consumer, a fetch that never answers and a biller Setu cannot fetch apart', async () => {
    await expect(live.provider.fetchBill(query('1234560004'), now)).rejects.toBeInstanceOf(NoBillDueError);
    await expect(live.provider.fetchBill(query('1234560005'), now)).resolves.toBeNull();
    const deadline = new AbortController();
    setTimeout(() => deadline.abort(), 1_000);
    await expect(live.provider.fetchBill(query('1234560006'), now, deadline.signal)).rejects.toBeInstanceOf(
      ProviderUnavailableError,
    );
    await expect(live.provider.fetchBill(query('1234560001', 1005, 'NOSUCH0000BILR'), now)).rejects.toThrow(
      /cannot fetch bills/,
    );
  });

  it('pays with the amount in paise and paymentRefId = the order id, then follows the payment by its refId', async () => {
    const { order: paying } = await fetchedOrder('1234560001');
    const sent = await live.provider.submit(paying, now);
    expect(sent).toEqual({ status: 'pending', providerReference: expect.any(String), pollAfterMs: SETU_POLL_AFTER_MS });
    expect(paymentsOf(paying)).toEqual([
      expect.objectContaining({
        amountPaise: 50_000,
        mode: 'Wallet',
        paymentRefId: paying.orderId.replace('_', ''),
        timestamp: expect.stringMatching(/\+05:30$/),
      }),
    ]);
    const providerReference = sent.status === 'pending' ? sent.providerReference : null;
    expect(await live.provider.poll({ ...paying, providerReference }, now)).toEqual({
      status: 'succeeded',
      operatorRef: paymentsOf(paying)[0].transactionId,
    });
  });

  it('fails a payment on Setu’s own Failure record, and on a refusal before anything was taken', async () => {
    const { order: failing } = await fetchedOrder('1234560002');
    const sent = await live.provider.submit(failing, now);
    const providerReference = sent.status === 'pending' ? sent.providerReference : null;
    expect(await live.provider.poll({ ...failing, providerReference }, now)).toEqual({
      status: 'failed',
      reason: expect.stringContaining('BRR005'),
      basis: 'provider_record',
    });
    const { order: unfunded } = await fetchedOrder('1234560012');
    expect(await live.provider.submit(unfunded, now)).toEqual({
      status: 'failed',
      reason: expect.stringContaining('insufficient-funds'),
      basis: 'refused',
    });
    expect(paymentsOf(unfunded)).toHaveLength(0);
  });

  it('a repeated submission of the same order gets 409 duplicate and the first payment’s status, never a second payment', async () => {
    const { order: paying } = await fetchedOrder('1234560001');
    await live.provider.submit(paying, now);
    expect(await live.provider.submit(paying, now)).toEqual({
      status: 'succeeded',
      operatorRef: paymentsOf(paying)[0].transactionId,
    });
    expect(paymentsOf(paying)).toHaveLength(1);
    expect(simulator.state.submissions.filter((s) => s.paymentRefId === paying.orderId.replace('_', ''))).toEqual([
      expect.objectContaining({ answer: 200 }),
      expect.objectContaining({ answer: 409, refId: paymentsOf(paying)[0].refId }),
    ]);
  });

  it('a 409 duplicate that names another order’s payment is not taken as this order’s outcome', async () => {
    const { order: other } = await fetchedOrder('1234560001');
    await live.provider.submit(other, now);
    expect(await live.provider.poll(other, now)).toMatchObject({ status: 'succeeded' });
    const { order: lost } = await fetchedOrder('1234560011');
    await expect(live.provider.submit(lost, now, AbortSignal.timeout(500))).rejects.toBeInstanceOf(
      ProviderUnavailableError,
    );
    simulator.state.duplicatesName = paymentsOf(other)[0].refId;
    try {
      // The lost payment is not listed yet: nothing of Setu's own record of it can be read, so it stays unknown.
      await expect(live.provider.submit({ ...lost, resubmission: true }, now)).rejects.toBeInstanceOf(
        ProviderUnavailableError,
      );
    } finally {
      simulator.state.duplicatesName = null;
    }
    expect(paymentsOf(lost)).toHaveLength(1);
  });

  it('a success Setu reports for another amount than the order’s is a mismatch: Setu’s transaction, never settled', async () => {
    const { order: paying } = await fetchedOrder('1234560001');
    const sent = await live.provider.submit(paying, now);
    const [payment] = paymentsOf(paying);
    payment.amountPaise += 100;
    expect(await live.provider.poll({ ...paying, providerReference: payment.refId }, now)).toEqual({
      status: 'mismatch',
      reason: expect.stringMatching(/is of 501.00 INR, not the order's 500.00 INR/),
      operatorRef: payment.transactionId,
      upstream: {
        customIdentifier: paying.orderId,
        transactionId: payment.transactionId,
        status: 'succeeded',
        amount: '501.00',
        currency: 'INR',
        at: new Date(Date.parse(payment.timestamp)).toISOString(),
      },
    });
    expect(sent).toMatchObject({ status: 'pending', providerReference: payment.refId });
  });

  it('an attempt whose answer is lost is unknown; the retried submission finds it in the transactions list and sends nothing', async () => {
    const { order: lost } = await fetchedOrder('1234560007');
    await expect(live.provider.submit(lost, now, AbortSignal.timeout(500))).rejects.toBeInstanceOf(
      ProviderUnavailableError,
    );
    expect(await live.provider.submit({ ...lost, resubmission: true }, now)).toEqual({
      status: 'succeeded',
      operatorRef: paymentsOf(lost)[0].transactionId,
    });
    expect(simulator.state.submissions.filter((s) => s.paymentRefId === lost.orderId.replace('_', ''))).toHaveLength(1);
  });

  it('a lost answer not yet in the list: the retry is sent again and answered by the 409 duplicate', async () => {
    const { order: lost } = await fetchedOrder('1234560011');
    await expect(live.provider.submit(lost, now, AbortSignal.timeout(500))).rejects.toBeInstanceOf(
      ProviderUnavailableError,
    );
    expect(await live.provider.submit({ ...lost, resubmission: true }, now)).toEqual({
      status: 'succeeded',
      operatorRef: paymentsOf(lost)[0].transactionId,
    });
    expect(paymentsOf(lost)).toHaveLength(1);
  });

  it('a lost answer listed as Error is read by its refId: a failure BBPS could not confirm leaves the order open', async () => {
    const { order: lost } = await fetchedOrder('1234560008');
    await expect(live.provider.submit(lost, now, AbortSignal.timeout(500))).rejects.toBeInstanceOf(
      ProviderUnavailableError,
    );
    const [payment] = paymentsOf(lost);
    payment.failureCode = 'npci-connectivity-timeout';
    expect(await live.provider.submit({ ...lost, resubmission: true }, now)).toMatchObject({
      status: 'pending',
      providerReference: payment.refId,
    });
    expect(paymentsOf(lost)).toHaveLength(1);
  });

  it('several payments under one paymentRefId (a new one taken after a failure at BBPS): the one that succeeded is the order’s', async () => {
    const { order: lost } = await fetchedOrder('1234560008');
    await expect(live.provider.submit(lost, now, AbortSignal.timeout(500))).rejects.toBeInstanceOf(
      ProviderUnavailableError,
    );
    const [first] = paymentsOf(lost);
    // Setu took a second payment of the same paymentRefId after the first failed, and its answer was lost too.
    simulator.state.payments.push({
      ...first,
      refId: `${first.refId.slice(0, -4)}9999`,
      status: 'Success',
      finalStatus: 'Success',
      transactionId: 'SETU-SECOND-PAYMENT',
      listedFrom: 0,
    });
    expect(await live.provider.submit({ ...lost, resubmission: true }, now)).toEqual({
      status: 'succeeded',
      operatorRef: 'SETU-SECOND-PAYMENT',
    });
    expect(await live.provider.poll({ ...lost, resubmission: true, inDoubtSince: now.toISOString() }, now)).toEqual({
      status: 'succeeded',
      operatorRef: 'SETU-SECOND-PAYMENT',
    });
  });

  it('a 503 with nothing recorded is unknown; the retry finds nothing and sends once more', async () => {
    const { order: once } = await fetchedOrder('1234560009');
    await expect(live.provider.submit(once, now)).rejects.toBeInstanceOf(ProviderUnavailableError);
    const retried = await live.provider.submit({ ...once, resubmission: true }, now);
    expect(retried).toMatchObject({ status: 'pending' });
    expect(paymentsOf(once)).toHaveLength(1);
  });

  it('past the re-send window an unknown payment is only looked up, and in doubt until Setu’s horizon (48 h); then a list read whole confirms its absence', async () => {
    const { bill } = await fetchedOrder('1234560001');
    const placed = (ago: number) =>
      order(bill.amount, bill.providerBillRef!, '1234560001', new Date(now.getTime() - ago));
    const old = placed(SETU_RESEND_WINDOW_MS + 1);
    expect(await live.provider.submit({ ...old, resubmission: true }, now)).toEqual({
      status: 'unknown',
      reason: expect.stringContaining('may still give one until'),
      retryAfterMs: SETU_POLL_AFTER_MS,
    });
    expect(paymentsOf(old)).toHaveLength(0);
    // 75 minutes (the rule before) and a day are inside the horizon: the order stays in doubt.
    for (const ago of [75 * 60_000, 86_400_000, SETU_DELIVERY_HORIZON_MS - 1])
      expect(await live.provider.poll(placed(ago), now)).toMatchObject({ status: 'unknown' });
    expect(await live.provider.poll(placed(SETU_DELIVERY_HORIZON_MS), now)).toEqual({
      status: 'failed',
      reason: expect.stringMatching(/read whole from \d{4}-\d{2}-\d{2} to \d{4}-\d{2}-\d{2}, shows none 48 hours/),
      basis: 'absence_confirmed',
    });
    expect(live.provider.deliveryHorizonMs('bill_payment')).toBe(SETU_DELIVERY_HORIZON_MS);
    expect(live.provider.deliveryHorizonMs('topup')).toBe(0);
  });

  it('a payment Setu acknowledged is never taken as absent, whatever the time: it stays unknown', async () => {
    const longAgo = new Date(now.getTime() - SETU_DELIVERY_HORIZON_MS - 3_600_000);
    const acknowledged = {
      ...order('500.00', 'FETCH-REF-UNKNOWN', '1234560001', longAgo),
      providerReference: 'NOSUCHREF',
    };
    expect(
      await live.provider.poll({ ...acknowledged, resubmission: true, inDoubtSince: longAgo.toISOString() }, now),
    ).toMatchObject({ status: 'unknown', reason: expect.stringContaining('never taken as absent') });
    const unacknowledged = { ...acknowledged, providerReference: null };
    expect(await live.provider.poll({ ...unacknowledged, inDoubtSince: longAgo.toISOString() }, now)).toMatchObject({
      status: 'failed',
      basis: 'absence_confirmed',
    });
  });

  it('takes a new token when Setu refuses an expired one, and sends the partner header on every call', async () => {
    const issued = simulator.state.tokensIssued;
    simulator.state.expireTokens();
    expect(await live.provider.fetchBill(query('1234560001'), now)).toMatchObject({ amount: '500.00' });
    expect(simulator.state.tokensIssued).toBe(issued + 1);
    const wrongPartner = new SetuLiveProvider({ ...config, partnerId: '999' }, new JsonCatalog(), SILENT);
    await expect(wrongPartner.provider.fetchBill(query('1234560001'), now)).rejects.toBeInstanceOf(
      ProviderUnavailableError,
    );
    const wrongSecret = new SetuLiveProvider({ ...config, clientSecret: 'wrong' }, new JsonCatalog(), SILENT);
    expect((await wrongSecret.status(true)).error).toMatch(/refused the credentials/);
    expect((await live.status(true)).error).toBeNull();
  });

  it('reads the biller catalog and the transactions list for the back office', async () => {
    const products = await live.backOffice.products(['IN', 'BD']);
    expect(products).toContainEqual({ kind: 'biller', id: 'BESCOM000KAR01', name: expect.any(String), country: 'IN' });
    expect(await live.backOffice.products(['SG'])).toEqual([]);
    const day = new Date(now.getTime() - 86_400_000);
    const listed = await live.backOffice.transactions(day, new Date(now.getTime() + 86_400_000));
    expect(listed.length).toBeGreaterThan(3);
    expect(listed).toContainEqual(
      expect.objectContaining({ customIdentifier: expect.stringMatching(/^ord_/), currency: 'INR', amount: '500.00' }),
    );
  });
});
