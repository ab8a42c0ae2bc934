import { InitiatedOrder } from '../../../src/domain/transaction/order-view';
import { dryRunResource, orderResource, readOrderAnswer } from '../../../src/interface/shared/order-resources';
import { partnerEventBody, readPartnerEventBody } from '../../../src/application/webhooks/partner-events';
import { WEBHOOK_EVENTS } from '../../../src/application/webhooks/webhook-events';

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

describe('a partner event body read back from the feed', () => {
  const order = { amount: '100.00', currency: 'INR' as const, reference: 'inv-1' };
  it.each([
    [WEBHOOK_EVENTS.succeeded, { operatorRef: 'OP-1', settledAt: '2026-01-15T09:30:05.000Z' }],
    [WEBHOOK_EVENTS.failed, { refundedAt: '2026-01-15T09:30:05.000Z' }],
    [WEBHOOK_EVENTS.lowBalance, { availableBalance: '40.00', threshold: '50.00', reachedAt: '2026-01-15T09:30:00Z' }],
  ])('is the %s body as written', (event, facts) => {
    const body = partnerEventBody({ eventId: 'evt-1', event, orderId: 'ord_1', facts }, order);
    expect(readPartnerEventBody(body)).toStrictEqual(JSON.parse(body));
  });

  it.each([
    [
      'an unknown event',
      { event_id: 'e', event: 'transaction.pending', order_id: 'o', amount_local: '1.0000', currency: 'INR' },
    ],
    [
      'a field missing',
      { event_id: 'e', event: 'transaction.failed', order_id: 'o', amount_local: '1.0000', currency: 'INR' },
    ],
    [
      'an unknown currency',
      {
        event_id: 'e',
        event: 'transaction.failed',
        order_id: 'o',
        amount_local: '1.0000',
        currency: 'EUR',
        refunded_at: null,
      },
    ],
  ])('is refused with %s', (_, body) => {
    expect(() => readPartnerEventBody(JSON.stringify(body))).toThrow('not the body of a partner event');
  });
});
