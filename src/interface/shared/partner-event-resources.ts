import type { PartnerEventsPage } from '../../application/events-feed/read-partner-events';
import { PartnerEventAnnouncement, PartnerEventBodies } from '../../application/ports/partner-event-bodies.port';
import { FieldChecks, holdsFields, isExactly, isText, isTextOrNull } from '../../application/shared/resource-checks';
import { WEBHOOK_EVENTS } from '../../application/webhooks/webhook-events';
import { Currency, isCurrency } from '../../domain/money/currency';
import { amountLocal } from '../../domain/money/money';

/** The transaction.succeeded event, as its webhook body and feed entry show it. */
export interface TransactionSucceededResource {
  event_id: string;
  event: typeof WEBHOOK_EVENTS.succeeded;
  order_id: string;
  operator_ref: string | null;
  amount_local: string;
  currency: Currency;
  reference: string | null;
  settled_at: string | null;
}

/** The transaction.failed event (the wallet was refunded). */
export interface TransactionFailedResource {
  event_id: string;
  event: typeof WEBHOOK_EVENTS.failed;
  order_id: string;
  amount_local: string;
  currency: Currency;
  refunded_at: string | null;
}

/** The wallet.low_balance event: the debit of order_id took the available balance below the threshold. */
export interface LowBalanceResource {
  event_id: string;
  event: typeof WEBHOOK_EVENTS.lowBalance;
  order_id: string;
  amount_local: string;
  currency: Currency;
  available_balance: string | null;
  low_balance_threshold: string | null;
  occurred_at: string | null;
}

/** The PartnerEvent resource: an event exactly as its webhook body. */
export type PartnerEventResource = TransactionSucceededResource | TransactionFailedResource | LowBalanceResource;

/** The PartnerEventList resource: one page of the caller's events, oldest first. */
export interface PartnerEventListResource {
  count: number;
  events: PartnerEventResource[];
  next_cursor: string | null;
  has_more: boolean;
}

export function partnerEventResource({
  eventId,
  event,
  orderId,
  facts,
  order,
}: PartnerEventAnnouncement): PartnerEventResource {
  const amount = amountLocal(order.amount, order.currency);
  if (event === WEBHOOK_EVENTS.lowBalance) {
    return {
      event_id: eventId,
      event,
      order_id: orderId,
      amount_local: amount,
      currency: order.currency,
      available_balance: facts.availableBalance ?? null,
      low_balance_threshold: facts.threshold ?? null,
      occurred_at: facts.reachedAt ?? null,
    };
  }
  if (event === WEBHOOK_EVENTS.succeeded) {
    return {
      event_id: eventId,
      event,
      order_id: orderId,
      operator_ref: facts.operatorRef ?? null,
      amount_local: amount,
      currency: order.currency,
      reference: order.reference,
      settled_at: facts.settledAt ?? null,
    };
  }
  return {
    event_id: eventId,
    event,
    order_id: orderId,
    amount_local: amount,
    currency: order.currency,
    refunded_at: facts.refundedAt ?? null,
  };
}

/** The JSON body of a webhook and of a feed entry (the event stream's `data:`), byte for byte the same for both. */
export const partnerEventBody = (announcement: PartnerEventAnnouncement): string =>
  JSON.stringify(partnerEventResource(announcement));

export const PARTNER_EVENT_BODIES_AS_SENT: PartnerEventBodies = { bodyOf: partnerEventBody };

/**
 * A webhook body read back from where it was kept (the events feed): checked field by field to be
 * a body partnerEventBody writes, so it is answered as the resource it is.
 */
export function readPartnerEventBody(body: string): PartnerEventResource {
  const value: unknown = JSON.parse(body);
  if (holdsFields(value, SUCCEEDED) || holdsFields(value, FAILED) || holdsFields(value, LOW_BALANCE)) return value;
  throw new Error('a kept partner event body is not the body of a partner event');
}

/** GET /events: the events as the webhooks carry them, and where to go on from. */
export const partnerEventsResource = (page: PartnerEventsPage): PartnerEventListResource => ({
  count: page.entries.length,
  events: page.entries.map((entry) => readPartnerEventBody(entry.body)),
  next_cursor: page.nextCursor,
  has_more: page.hasMore,
});

const SUCCEEDED: FieldChecks<TransactionSucceededResource> = {
  event_id: isText,
  event: isExactly(WEBHOOK_EVENTS.succeeded),
  order_id: isText,
  operator_ref: isTextOrNull,
  amount_local: isText,
  currency: isCurrency,
  reference: isTextOrNull,
  settled_at: isTextOrNull,
};

const FAILED: FieldChecks<TransactionFailedResource> = {
  event_id: isText,
  event: isExactly(WEBHOOK_EVENTS.failed),
  order_id: isText,
  amount_local: isText,
  currency: isCurrency,
  refunded_at: isTextOrNull,
};

const LOW_BALANCE: FieldChecks<LowBalanceResource> = {
  event_id: isText,
  event: isExactly(WEBHOOK_EVENTS.lowBalance),
  order_id: isText,
  amount_local: isText,
  currency: isCurrency,
  available_balance: isTextOrNull,
  low_balance_threshold: isTextOrNull,
  occurred_at: isTextOrNull,
};
