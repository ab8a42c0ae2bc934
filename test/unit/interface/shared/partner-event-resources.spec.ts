import { WEBHOOK_EVENTS } from '../../../../src/application/webhooks/webhook-events';
import {
  partnerEventBody,
  partnerEventsResource,
  readPartnerEventBody,
} from '../../../../src/interface/shared/partner-event-resources';

const order = { amount: '100.5', currency: 'INR' as const, reference: 'inv-1' };

describe('a partner event body', () => {
  it.each([
    [
      WEBHOOK_EVENTS.succeeded,
      { operatorRef: 'OP-1', settledAt: '2026-01-15T09:30:05.000Z' },
      '{"event_id":"evt-1","event":"transaction.succeeded","order_id":"ord_1","operator_ref":"OP-1",' +
        '"amount_local":"100.5000","currency":"INR","reference":"inv-1","settled_at":"2026-01-15T09:30:05.000Z"}',
    ],
    [
      WEBHOOK_EVENTS.failed,
      { refundedAt: '2026-01-15T09:30:05.000Z' },
      '{"event_id":"evt-1","event":"transaction.failed","order_id":"ord_1","amount_local":"100.5000",' +
        '"currency":"INR","refunded_at":"2026-01-15T09:30:05.000Z"}',
    ],
    [
      WEBHOOK_EVENTS.lowBalance,
      { availableBalance: '40.00', threshold: '50.00', reachedAt: '2026-01-15T09:30:00Z' },
      '{"event_id":"evt-1","event":"wallet.low_balance","order_id":"ord_1","amount_local":"100.5000",' +
        '"currency":"INR","available_balance":"40.00","low_balance_threshold":"50.00","occurred_at":"2026-01-15T09:30:00Z"}',
    ],
  ])('of %s is written field by field in the documented order', (event, facts, expected) => {
    expect(partnerEventBody({ eventId: 'evt-1', event, orderId: 'ord_1', facts, order })).toBe(expected);
  });

  it('shows null for a fact its event did not carry', () => {
    const body = JSON.parse(
      partnerEventBody({ eventId: 'evt-1', event: WEBHOOK_EVENTS.succeeded, orderId: 'ord_1', facts: {}, order }),
    );
    expect(body).toMatchObject({ operator_ref: null, settled_at: null });
  });

  it('is, in the events feed, the same resource the webhook body carries', () => {
    const announcement = {
      eventId: 'evt-2',
      event: WEBHOOK_EVENTS.failed,
      orderId: 'ord_2',
      facts: { refundedAt: '2026-01-15T09:31:00.000Z' },
      order,
    };
    const body = partnerEventBody(announcement);
    const entry = { cursor: 'c1', eventId: 'evt-2', event: WEBHOOK_EVENTS.failed, body };
    const page = partnerEventsResource({ entries: [entry], nextCursor: 'c1', hasMore: false });
    expect(page).toStrictEqual({
      count: 1,
      events: [JSON.parse(body)],
      next_cursor: 'c1',
      has_more: false,
    });
  });
});

describe('a partner event body read back from the feed', () => {
  it.each([
    [WEBHOOK_EVENTS.succeeded, { operatorRef: 'OP-1', settledAt: '2026-01-15T09:30:05.000Z' }],
    [WEBHOOK_EVENTS.failed, { refundedAt: '2026-01-15T09:30:05.000Z' }],
    [WEBHOOK_EVENTS.lowBalance, { availableBalance: '40.00', threshold: '50.00', reachedAt: '2026-01-15T09:30:00Z' }],
  ])('is the %s body as written', (event, facts) => {
    const body = partnerEventBody({ eventId: 'evt-1', event, orderId: 'ord_1', facts, order });
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
