import { ProviderOrder } from '../../../../../src/application/ports/provider-gateway.port';
import {
  SETU_POLL_AFTER_MS,
  SetuPaymentRecord,
  outcomeOfRecord,
} from '../../../../../src/infrastructure/providers/setu/setu-payment-outcome';

const order: ProviderOrder = {
  orderId: 'ord_5f2c9a0e1b7d4c3a9e8f6a21',
  amount: '500.00',
  currency: 'INR',
  placedAt: '2026-11-24T20:00:00.000Z',
  product: { kind: 'bill_payment', billerId: 1005, consumerNumber: '1234560001', billReference: 'B', params: {} },
  route: { provider: 'setu', upstreamId: 'BESCOM000KAR01' },
};
const record = (fields: Partial<SetuPaymentRecord> = {}): SetuPaymentRecord => ({
  refId: 'REF1',
  status: 'Success',
  transactionId: 'AS01TXN1',
  paymentRefId: 'ord5f2c9a0e1b7d4c3a9e8f6a21',
  amount: '500.00',
  timestamp: '2026-11-25T01:30:00+05:30',
  failure: null,
  listed: false,
  ...fields,
});

/** Setu's record of a payment under our paymentRefId, checked against the order (decisions 0049 and 0119). */
describe('a Setu payment record as the order’s outcome', () => {
  it('settles on a Success of the order’s amount, with the BBPS transaction id', () => {
    expect(outcomeOfRecord(record(), order)).toEqual({ status: 'succeeded', operatorRef: 'AS01TXN1' });
    expect(outcomeOfRecord(record({ amount: '500.0' }), { ...order, amount: '500.0000' })).toMatchObject({
      status: 'succeeded',
    });
  });

  it('answers mismatch for a Success of another amount: Setu’s transaction, its amount and its date for finance', () => {
    expect(outcomeOfRecord(record({ amount: '501.00' }), order)).toEqual({
      status: 'mismatch',
      reason: expect.stringContaining("is of 501.00 INR, not the order's 500.00 INR"),
      operatorRef: 'AS01TXN1',
      upstream: {
        customIdentifier: order.orderId,
        transactionId: 'AS01TXN1',
        status: 'succeeded',
        amount: '501.00',
        currency: 'INR',
        at: '2026-11-24T20:00:00.000Z',
      },
    });
    // Without a readable timestamp, the placement (the timestamp we sent) dates it.
    expect(outcomeOfRecord(record({ amount: '1.00', timestamp: null, transactionId: null }), order)).toMatchObject({
      status: 'mismatch',
      operatorRef: 'REF1',
      upstream: { transactionId: 'REF1', at: order.placedAt },
    });
  });

  it('neither settles nor fails on a Success without an amount, or a failure or Processing of another amount', () => {
    expect(outcomeOfRecord(record({ amount: null }), order)).toMatchObject({
      status: 'unknown',
      reason: expect.stringContaining('no amount'),
    });
    expect(outcomeOfRecord(record({ status: 'Failure', amount: '5.00' }), order)).toMatchObject({ status: 'unknown' });
    expect(outcomeOfRecord(record({ status: 'Processing', amount: '5.00' }), order)).toMatchObject({
      status: 'unknown',
    });
  });

  it('fails on Setu’s Failure record, but not on the list’s Error alone, which gives no reason', () => {
    const failure = { code: 'BRR005', message: 'Biller not accepting payments', type: 'BBPS' };
    expect(outcomeOfRecord(record({ status: 'Failure', failure }), order)).toEqual({
      status: 'failed',
      reason: 'setu payment REF1 Failure (BBPS BRR005 Biller not accepting payments)',
      basis: 'provider_record',
    });
    expect(outcomeOfRecord(record({ status: 'Error', listed: true }), order)).toMatchObject({ status: 'unknown' });
    expect(outcomeOfRecord(record({ status: 'Processing' }), order)).toEqual({
      status: 'pending',
      providerReference: 'REF1',
      pollAfterMs: SETU_POLL_AFTER_MS,
    });
  });
});
