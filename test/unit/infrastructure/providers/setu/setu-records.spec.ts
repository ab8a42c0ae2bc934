import { outstandingBillOf } from '../../../../../src/infrastructure/providers/setu/setu-bill';
import { customerParamsFor } from '../../../../../src/infrastructure/providers/setu/setu-customer-params';
import {
  istDate,
  istTimestamp,
  orderIdOfPaymentRef,
  paymentRefIdOf,
} from '../../../../../src/infrastructure/providers/setu/setu-identifiers';
import { paiseOf, rupeesOf } from '../../../../../src/infrastructure/providers/setu/setu-money';
import {
  billerOf,
  customerFeeOf,
  errorOf,
  fetchOf,
  nextPageOf,
  paymentOf,
  transactionOf,
} from '../../../../../src/infrastructure/providers/setu/setu-records';
import { envelopeOf } from '../../../../../src/infrastructure/providers/setu/setu-envelope';

/** The `data` of an answer in Setu's envelope (a test fails on anything else). */
function dataOf(body: unknown): Record<string, unknown> {
  const envelope = envelopeOf(body, 200);
  if (envelope.kind !== 'data') throw new Error(`not an answer with data: ${JSON.stringify(envelope)}`);
  return envelope.data;
}

/** Setu's answers read as the adapter reads them; the samples follow Setu's published examples. */
describe('reading Setu’s answers', () => {
  it('reads a v2 fetch answer, and a v1-shaped one with a single bill', () => {
    const v2 = fetchOf(
      dataOf({
        data: {
          bills: [
            {
              amount: 795200,
              billDate: '2023-07-17',
              billNumber: '6335383640061391882',
              billPeriod: 'Monthly',
              customerName: 'Aiden Anderson',
              dueDate: '2023-07-30',
            },
          ],
          billerRefId: '6506500547',
          exactness: 'Any',
          refId: 'CISB5GK91PA96LI47QR0VNE753032010936',
          status: 'Success',
        },
        success: true,
        traceId: 'CISB5HC91PA96LI47QTG',
      }),
    );
    expect(v2).toEqual({
      refId: 'CISB5GK91PA96LI47QR0VNE753032010936',
      status: 'Success',
      failure: null,
      billerRefId: '6506500547',
      exactness: 'Any',
      bills: [
        {
          amount: '7952.00',
          billDate: '2023-07-17',
          billNumber: '6335383640061391882',
          billPeriod: 'Monthly',
          customerName: 'Aiden Anderson',
          dueDate: '2023-07-30',
        },
      ],
    });
    const v1 = fetchOf({ refId: 'A', status: 'Success', bill: { amount: 300000, dueDate: '2021-09-26' } });
    expect(v1?.bills[0]).toMatchObject({ amount: '3000.00', dueDate: '2021-09-26', billNumber: null });
    expect(fetchOf({ refId: 'A' })).toBeNull();
  });

  it('reads a payment answer with its failure reason, and the error envelope', () => {
    expect(
      paymentOf(
        dataOf({
          data: {
            billerId: 'AX5110005XXZ43',
            billerRefId: '1707084506905086465',
            paymentDetails: { amount: 10000, mode: 'Internet Banking', paymentRefId: 'N2001121212344', timestamp: 'x' },
            failureReason: { code: 'ERR004', message: 'Customer not found', type: 'BBPS' },
            refId: 'CISB9JS91PA96LI47RIGPYZ227K32010945',
            status: 'Failure',
            transactionId: 'AS01320109451110R5LL',
          },
          success: true,
        }),
      ),
    ).toEqual({
      refId: 'CISB9JS91PA96LI47RIGPYZ227K32010945',
      status: 'Failure',
      transactionId: 'AS01320109451110R5LL',
      billerId: 'AX5110005XXZ43',
      billerRefId: '1707084506905086465',
      paymentRefId: 'N2001121212344',
      amount: '100.00',
      timestamp: 'x',
      failure: { code: 'ERR004', message: 'Customer not found', type: 'BBPS' },
    });
    expect(errorOf({ error: { code: 'validation-error', message: 'Input is invalid' }, success: false })).toEqual({
      code: 'validation-error',
      message: 'Input is invalid',
    });
    expect(errorOf({ error: { Code: 'biller-registration-failed', Message: 'm' } }).code).toBe(
      'biller-registration-failed',
    );
  });

  it('reads list entries (v2 paymentRefId, v1 partnerRefId), billers and the next page’s cursor', () => {
    expect(
      transactionOf({
        amount: 10000,
        billerId: 'AX5110005XXZ43',
        paymentRefId: 'N2001121212344',
        refId: 'R',
        status: 'Success',
        timestamp: '2020-12-12T13:12:00.000+05:30',
        transactionId: 'AS01320109451110R5LL',
      }),
    ).toMatchObject({ paymentRefId: 'N2001121212344', amount: '100.00', status: 'Success' });
    expect(transactionOf({ partnerRefId: 'P', status: 'Error' })?.paymentRefId).toBe('P');
    expect(
      billerOf({
        id: 'AADH00000NATPT',
        name: 'Badhar Housing Finance Limited',
        fetchApiType: 'BILL_FETCH',
        customerParams: [{ paramName: 'Application ID', optional: false }],
      }),
    ).toEqual({
      id: 'AADH00000NATPT',
      name: 'Badhar Housing Finance Limited',
      categoryName: null,
      fetchApiType: 'BILL_FETCH',
      customerParams: [{ paramName: 'Application ID', optional: false }],
      customerFee: null,
    });
    expect(nextPageOf({ nextPage: '/api/bbps/billers?search=A&after=ABCC00000PTNNS' })).toEqual({
      kind: 'after',
      after: 'ABCC00000PTNNS',
    });
    expect(nextPageOf({})).toEqual({ kind: 'last' });
    expect(nextPageOf({ nextPage: null })).toEqual({ kind: 'last' });
    // A next page named without a cursor cannot be followed: the list is not taken as read whole.
    expect(nextPageOf({ nextPage: '/api/v2/bbps/transactions?limit=250' }).kind).toBe('unreadable');
    expect(nextPageOf({ nextPage: 7 }).kind).toBe('unreadable');
  });

  it('converts paise and rupees exactly, refusing fractions of a paisa and floats', () => {
    expect(paiseOf('850.50')).toBe(85_050n);
    expect(paiseOf('850.5000')).toBe(85_050n);
    expect(paiseOf('12')).toBe(1_200n);
    expect(paiseOf('0.001')).toBeNull();
    expect(paiseOf('1e3')).toBeNull();
    expect(rupeesOf(5)).toBe('0.05');
    expect(rupeesOf(9_007_199_254_740_991)).toBe('90071992547409.91');
    expect(rupeesOf(10.5)).toBeNull();
    expect(rupeesOf('100')).toBeNull();
  });

  it('derives paymentRefId from the order id and back; writes times in India', () => {
    expect(paymentRefIdOf('ord_5f2c9a0e1b7d4c3a9e8f6a21')).toBe('ord5f2c9a0e1b7d4c3a9e8f6a21');
    expect(orderIdOfPaymentRef('ord5f2c9a0e1b7d4c3a9e8f6a21')).toBe('ord_5f2c9a0e1b7d4c3a9e8f6a21');
    expect(orderIdOfPaymentRef('N2001121212344')).toBeNull();
    expect(paymentRefIdOf('ord_' + 'a'.repeat(40))).toBeNull();
    expect(istTimestamp(new Date('2026-11-24T20:00:00.000Z'))).toBe('2026-11-25T01:30:00+05:30');
    expect(istDate(new Date('2026-11-24T18:29:59.000Z'))).toBe('2026-11-24');
    expect(istDate(new Date('2026-11-24T18:30:00.000Z'))).toBe('2026-11-25');
  });

  it('shows a fetched bill: period from the bill date, the bill number as reference, overdue by India’s date', () => {
    const fetched = fetchOf(
      dataOf({
        success: true,
        data: {
          refId: 'REF',
          status: 'Success',
          bills: [
            {
              amount: 50000,
              billDate: '2026-10-28',
              billNumber: 'B1',
              billPeriod: 'MONTHLY',
              customerName: 'A',
              dueDate: '2026-11-24',
            },
          ],
        },
      }),
    )!;
    expect(outstandingBillOf(fetched, 'X', new Date('2026-11-24T18:29:00Z'))).toEqual({
      customerName: 'A',
      amount: '500.00',
      dueDate: '2026-11-24',
      billPeriod: '2026-10',
      billReference: 'B1',
      overdue: false,
      providerBillRef: 'REF',
    });
    expect(outstandingBillOf(fetched, 'X', new Date('2026-11-24T18:31:00Z')).overdue).toBe(true);
    expect(() => outstandingBillOf({ ...fetched, bills: [] }, 'X', new Date())).toThrow(/no amount/);
    expect(() =>
      outstandingBillOf({ ...fetched, bills: [...fetched.bills, ...fetched.bills] }, 'X', new Date()),
    ).toThrow(/2 bills/);
  });

  it('names customer parameters as the biller declares them, the consumer number under the first required one left', () => {
    const labels = { consumerNumber: 'Consumer No', params: { billing_unit: 'Billing Unit (BU)' } };
    const biller = {
      id: 'B',
      name: 'n',
      categoryName: null,
      fetchApiType: 'BILL_FETCH',
      customerParams: [
        { paramName: 'Billing Unit (BU)', optional: false },
        { paramName: 'Email', optional: true },
        { paramName: 'Consumer Number', optional: false },
      ],
      customerFee: null,
    };
    expect(customerParamsFor(biller, labels, '123456789012', { billing_unit: '4521' })).toEqual([
      { name: 'Billing Unit (BU)', value: '4521' },
      { name: 'Consumer Number', value: '123456789012' },
    ]);
    expect(customerParamsFor(null, labels, '123456789012', { billing_unit: '4521' })).toEqual([
      { name: 'Consumer No', value: '123456789012' },
      { name: 'Billing Unit (BU)', value: '4521' },
    ]);
  });

  it('reads only Setu’s envelope: an HTML page, success: false with a 200, a JSON without data are none of its answers', () => {
    expect(envelopeOf({ data: { refId: 'R' }, success: true, traceId: 'T' }, 200)).toEqual({
      kind: 'data',
      data: { refId: 'R' },
    });
    expect(envelopeOf({ error: { code: 'invalid-ref-id', message: 'm' }, success: false, traceId: 'T' }, 400)).toEqual({
      kind: 'error',
      code: 'invalid-ref-id',
      message: 'm',
    });
    // The 409 of a payment request has the 200 answer's shape, whatever its success says.
    expect(envelopeOf({ data: { refId: 'R', duplicate: { refId: 'R' } }, success: false }, 409).kind).toBe('data');
    expect(envelopeOf(undefined, 200)).toEqual({ kind: 'other', what: 'a body that is not JSON' });
    expect(envelopeOf({ success: true, traceId: 'T' }, 200).kind).toBe('other');
    expect(envelopeOf({ success: false, traceId: 'T' }, 200).kind).toBe('other');
    expect(envelopeOf({ data: { refId: 'R' }, traceId: 'T' }, 200).kind).toBe('other');
    expect(envelopeOf({ data: { refId: 'R' }, success: false }, 200).kind).toBe('other');
    expect(envelopeOf([1, 2], 200).kind).toBe('other');
  });

  it('finds a customer convenience fee: CCF1 charged to the customer (C2B) and not zero; other fees are not the customer’s', () => {
    const ccf = (flatFee: unknown, percentFee: unknown, feeCode = 'CCF1', feeDirection = 'C2B') => ({
      feeCode,
      feeDirection,
      interchangeFeeDetails: { flatFee, percentFee, tranAmtRangeMin: 1, tranAmtRangeMax: 999999999999 },
    });
    expect(customerFeeOf(undefined)).toBeNull();
    expect(customerFeeOf([])).toBeNull();
    expect(customerFeeOf([ccf(0, 0), ccf(500, 0, 'EBF', 'B2C'), ccf(100, 0, 'PBF', 'B2C')])).toBeNull();
    expect(customerFeeOf([ccf(100, 0)])).toMatch(/CCF1 \(C2B\) flatFee 100 paise, percentFee 0 %/);
    expect(customerFeeOf([ccf(0, 0.5)])).toMatch(/percentFee 0.5/);
    // What cannot be read is taken as a fee: one must never be missed.
    expect(customerFeeOf([ccf('1.00', 0)])).not.toBeNull();
    expect(customerFeeOf({ feeCode: 'CCF1' })).toMatch(/cannot be read/);
    expect(billerOf({ id: 'B', name: 'n', interchangeFee: [ccf(100, 0)] })?.customerFee).toMatch(/CCF1/);
  });
});
