import { Logger } from '@nestjs/common';
import {
  BillFetchUnsupportedError,
  BillQuery,
  ProviderNotSentError,
  ProviderOrder,
  ProviderUnavailableError,
} from '../../../src/application/ports/provider-gateway.port';
import { JsonCatalog } from '../../../src/infrastructure/catalog/json-catalog';
import { SetuLiveProvider } from '../../../src/infrastructure/providers/setu/setu-live-provider';
import { SETU_DELIVERY_HORIZON_MS, SETU_POLL_AFTER_MS } from '../../../src/infrastructure/providers/setu/setu-provider';
import { RunningSetuSimulator, startSetuSimulator } from '../../../tools/provider-sim/setu/setu-simulator';
import { SetuSimFault } from '../../../tools/provider-sim/setu/setu-sim-state';

const SILENT = new Logger('test');
SILENT.log = () => undefined;

/**
 * The Setu adapter against answers that are not Setu's word on a payment (the Setu simulator over HTTP): a page
 * outside Setu's envelope, a 429, a refused token, a record without our paymentRefId, a biller that charges a
 * convenience fee (docs/decisions/0121-setu-absence-and-answers.md, 0122-setu-convenience-fee.md).
 */
describe('the Setu adapter against answers that decide nothing', () => {
  let simulator: RunningSetuSimulator;
  let live: SetuLiveProvider;
  let orders = 0;
  const now = new Date();
  const credentials = { clientId: 'setu-client', clientSecret: 'setu-secret-never-shown' };
  const configOf = (url: string, partnerId: string) => ({
    url,
    ...credentials,
    partnerId,
    agentId: 'AX01AI06512391457204',
    agentIp: '124.170.23.24',
    agentMac: '48-4D-7E-CB-DB-6F',
    agentMobile: '9876543210',
    remitterName: 'Partner prepaid wallet',
  });
  const query = (consumerNumber: string, upstreamId = 'BESCOM000KAR01'): BillQuery => ({
    billerId: 1005,
    consumerNumber,
    currency: 'INR',
    params: {},
    route: { provider: 'setu', upstreamId },
  });
  const order = (
    amount: string,
    providerBillRef: string,
    placedAt = now,
    upstreamId = 'BESCOM000KAR01',
  ): ProviderOrder => ({
    orderId: `ord_${(++orders).toString(16).padStart(24, 'c')}`,
    amount,
    currency: 'INR',
    placedAt: placedAt.toISOString(),
    product: {
      kind: 'bill_payment',
      billerId: 1005,
      consumerNumber: 'x',
      billReference: 'x',
      params: {},
      providerBillRef,
    },
    route: { provider: 'setu', upstreamId },
  });
  const fetchedOrder = async (consumerNumber: string) => {
    const bill = await live.provider.fetchBill(query(consumerNumber), now);
    if (!bill?.providerBillRef) throw new Error('no bill');
    return order(bill.amount, bill.providerBillRef);
  };
  const paymentsOf = (provider: ProviderOrder) =>
    simulator.state.payments.filter((payment) => payment.paymentRefId === provider.orderId.replace('_', ''));
  const fault = (kind: SetuSimFault['kind'], path: string | null, remaining = 1) =>
    simulator.state.faults.push({ kind, path, remaining });
  const LIST = '/api/v2/bbps/transactions';
  const STATUS = '/api/v2/bbps/bills/payment/response';

  beforeAll(async () => {
    simulator = await startSetuSimulator({
      seed: 7,
      settleAfterMs: 0,
      hangMs: 1_500,
      retryAfterSeconds: 30,
      ...credentials,
    });
    live = new SetuLiveProvider(configOf(simulator.url, simulator.partnerId), new JsonCatalog(), SILENT);
  });
  afterAll(async () => {
    await simulator.close();
  });
  afterEach(() => simulator.state.faults.splice(0));

  it('a payment answered 200 with an HTML page or success: false is in doubt, never refused; the retry finds it', async () => {
    for (const suffix of ['0015', '0016']) {
      const paying = await fetchedOrder(`123456${suffix}`);
      await expect(live.provider.submit(paying, now)).rejects.toThrow(
        suffix === '0015' ? /not JSON, not Setu's answer envelope/ : /HTTP 200 internal-error/,
      );
      expect(paymentsOf(paying)).toHaveLength(1);
      expect(await live.provider.submit({ ...paying, resubmission: true }, now)).toEqual({
        status: 'succeeded',
        operatorRef: paymentsOf(paying)[0].transactionId,
      });
      expect(paymentsOf(paying)).toHaveLength(1);
    }
  });

  it('a transactions list that is not Setu’s answer leaves the order in doubt, even past the horizon: never "no payment"', async () => {
    const lost = order('500.00', 'FETCH-REF-NONE', new Date(now.getTime() - SETU_DELIVERY_HORIZON_MS - 60_000));
    for (const kind of ['html', 'unsuccessful', 'without_data', 'not_a_list'] as const) {
      fault(kind, LIST);
      await expect(live.provider.poll(lost, now)).rejects.toBeInstanceOf(ProviderUnavailableError);
      // Nor is it sent again: the look-up before a re-send meets the same answer.
      fault(kind, LIST);
      await expect(live.provider.submit({ ...lost, resubmission: true }, now)).rejects.toBeInstanceOf(
        ProviderUnavailableError,
      );
    }
    expect(paymentsOf(lost)).toHaveLength(0);
    // With Setu's own answer, a list read whole that shows nothing confirms the absence.
    expect(await live.provider.poll(lost, now)).toMatchObject({ status: 'failed', basis: 'absence_confirmed' });
  });

  it('a payment status that is not Setu’s answer is not "unknown refId": the order is asked about again', async () => {
    const paying = await fetchedOrder('1234560001');
    const sent = await live.provider.submit(paying, now);
    const providerReference = sent.status === 'pending' ? sent.providerReference : null;
    fault('html', STATUS);
    await expect(live.provider.poll({ ...paying, providerReference }, now)).rejects.toThrow(
      /not Setu's answer envelope/,
    );
    expect(await live.provider.poll({ ...paying, providerReference }, now)).toMatchObject({ status: 'succeeded' });
  });

  it('a 429 to a payment request means nothing was taken: not sent, with Setu’s Retry-After; sent again, it is paid once', async () => {
    const limited = await fetchedOrder('1234560014');
    const refused = live.provider.submit(limited, now);
    await expect(refused).rejects.toBeInstanceOf(ProviderNotSentError);
    await expect(refused).rejects.toMatchObject({ retryAfterMs: 30_000 });
    expect(paymentsOf(limited)).toHaveLength(0);
    expect(await live.provider.submit(limited, now)).toMatchObject({ status: 'pending' });
    expect(paymentsOf(limited)).toHaveLength(1);
  });

  it('a 429 to a look-up leaves the order as it is, asked again after Retry-After', async () => {
    const paying = await fetchedOrder('1234560001');
    const sent = await live.provider.submit(paying, now);
    const providerReference = sent.status === 'pending' ? sent.providerReference : null;
    fault('rate_limited', STATUS);
    const looked = live.provider.poll({ ...paying, providerReference }, now);
    await expect(looked).rejects.toBeInstanceOf(ProviderUnavailableError);
    await expect(looked).rejects.not.toBeInstanceOf(ProviderNotSentError);
    await expect(looked).rejects.toMatchObject({ retryAfterMs: 30_000 });
  });

  it('without a token (credentials refused, the token endpoint at its rate limit) nothing is sent; an expired token is replaced', async () => {
    const paying = await fetchedOrder('1234560001');
    const wrongSecret = new SetuLiveProvider(
      { ...configOf(simulator.url, simulator.partnerId), clientSecret: 'wrong' },
      new JsonCatalog(),
      SILENT,
    );
    await expect(wrongSecret.provider.submit(paying, now)).rejects.toBeInstanceOf(ProviderNotSentError);
    fault('rate_limited', '/api/v2/auth/token');
    const fresh = new SetuLiveProvider(configOf(simulator.url, simulator.partnerId), new JsonCatalog(), SILENT);
    await expect(fresh.provider.submit(paying, now)).rejects.toMatchObject({
      name: 'ProviderNotSentError',
      retryAfterMs: 30_000,
    });
    expect(paymentsOf(paying)).toHaveLength(0);
    // An expired token is replaced and the same request made once more.
    const issued = simulator.state.tokensIssued;
    simulator.state.expireTokens();
    expect(await live.provider.submit(paying, now)).toMatchObject({ status: 'pending' });
    expect(simulator.state.tokensIssued).toBe(issued + 1);
    expect(paymentsOf(paying)).toHaveLength(1);
  });

  it('a payment record that does not carry our paymentRefId is never taken as the order’s, nor is its absence confirmed', async () => {
    const paying = await fetchedOrder('1234560017');
    const sent = await live.provider.submit(paying, now);
    expect(sent).toMatchObject({ status: 'pending', providerReference: paymentsOf(paying)[0].refId });
    const providerReference = sent.status === 'pending' ? sent.providerReference : null;
    expect(await live.provider.poll({ ...paying, providerReference }, now)).toEqual({
      status: 'unknown',
      reason: expect.stringContaining('never taken as absent'),
      retryAfterMs: SETU_POLL_AFTER_MS,
    });
    // Lost answer, past the horizon: a listed entry without a paymentRefId may be the order's; it stays in doubt.
    const late = new Date(now.getTime() + SETU_DELIVERY_HORIZON_MS + 60_000);
    expect(await live.provider.poll(paying, late)).toMatchObject({
      status: 'unknown',
      reason: expect.stringMatching(/entries of its transactions list .* name no paymentRefId/),
    });
  });

  it('a biller entry that cannot be read before a payment sends nothing, for now', async () => {
    const paying = await fetchedOrder('1234560001');
    fault('html', '/api/v2/bbps/billers');
    await expect(live.provider.submit(paying, now)).rejects.toBeInstanceOf(ProviderNotSentError);
    expect(paymentsOf(paying)).toHaveLength(0);
  });
  it('a biller that charges a convenience fee is not fetched, not paid, not offered by the catalog, and refused as a route', async () => {
    await expect(live.provider.fetchBill(query('123456001', 'ADAN00000MUM01'), now)).rejects.toThrow(
      BillFetchUnsupportedError,
    );
    await expect(live.provider.fetchBill(query('123456001', 'ADAN00000MUM01'), now)).rejects.toThrow(
      /charges a customer convenience fee on top of the bill \(CCF1 \(C2B\) flatFee 100 paise/,
    );
    const bescom = await fetchedOrder('1234560001');
    expect(
      await live.provider.submit({ ...bescom, route: { provider: 'setu', upstreamId: 'ADAN00000MUM01' } }, now),
    ).toEqual({
      status: 'failed',
      reason: expect.stringContaining('charges a customer convenience fee'),
      basis: 'not_sent',
    });
    const products = await live.backOffice.products(['IN']);
    expect(products.find((product) => product.id === 'ADAN00000MUM01')).toMatchObject({
      notOffered: expect.stringContaining('CCF1'),
    });
    // A CCF of zero and a biller's own fee (B2C) are not the customer's: BESCOM is offered.
    expect(products.find((product) => product.id === 'BESCOM000KAR01')).not.toHaveProperty('notOffered');
    expect(await live.backOffice.refusalOf('biller', 'ADAN00000MUM01')).toMatch(/convenience fee/);
    expect(await live.backOffice.refusalOf('biller', 'BESCOM000KAR01')).toBeNull();
    // A fee Setu's entry shows after the bill was fetched: the payment is still not sent.
    simulator.state.customerFees.set('BESCOM000KAR01', 50);
    try {
      expect(await live.provider.submit(bescom, now)).toMatchObject({ status: 'failed', basis: 'not_sent' });
    } finally {
      simulator.state.customerFees.delete('BESCOM000KAR01');
    }
    expect(paymentsOf(bescom)).toHaveLength(0);
  });
});
