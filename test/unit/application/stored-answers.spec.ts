import { InitiatedOrder } from '../../../src/domain/transaction/order-view';
import { dryRunResource, orderResource, readOrderAnswer } from '../../../src/interface/shared/order-resources';

/**
 * Answers kept as bytes (a placement's answer for its replays, a webhook body in the events feed)
 * are read back as the resources they were written from, and nothing else passes as one.
 */
const topup: InitiatedOrder = {
  orderId: 'ord_topup',
  product: { kind: 'topup', operatorId: 101, phone: '+919876540001' },
  amount: '100.00',
  currency: 'INR',
  balanceAfter: '900.00',
  reference: 'inv-1',
  createdAt: '2026-01-15T09:30:00.000Z',
};
const billPayment: InitiatedOrder = {
  orderId: 'ord_bill',
  product: {
    kind: 'bill_payment',
    billerId: 1005,
    consumerNumber: '1234560001',
    billReference: 'SBX-1005',
    params: {},
  },
  amount: '500.00',
  currency: 'INR',
  balanceAfter: '400.00',
  reference: null,
  createdAt: '2026-01-15T09:31:00.000Z',
};

describe('a placement answer read back', () => {
  it.each([
    ['a topup Order', orderResource(topup)],
    ['a bill payment Order', orderResource(billPayment)],
    ['a topup dry run', dryRunResource(topup)],
    ['a bill payment dry run', dryRunResource(billPayment)],
  ])('is %s as it was written', (_, answer) => {
    expect(readOrderAnswer(JSON.stringify(answer))).toStrictEqual(answer);
  });

  it.each([
    ['a field missing', JSON.stringify({ ...orderResource(topup), created_at: undefined })],
    ['a field of another type', JSON.stringify({ ...orderResource(topup), operator_id: '101' })],
    ['another status', JSON.stringify({ ...orderResource(topup), status: 'SUCCESS' })],
    ['a dry run whose preview lacks its amount', JSON.stringify({ validate_only: true, would: { operator_id: 101 } })],
    ['not an object', '"PENDING"'],
  ])('is refused with %s', (_, body) => {
    expect(() => readOrderAnswer(body)).toThrow('a placement answer is not an Order or a dry-run answer');
  });
});
