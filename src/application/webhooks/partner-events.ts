import { Environment } from '../../domain/shared/environment';
import { Currency, isCurrency } from '../../domain/money/currency';
import { TransactionSettled } from '../../domain/transaction/transaction.events';
import { WalletRefunded } from '../../domain/wallet/wallet.events';
import { typesOf } from '../../domain/shared/event-types';
import { parseWalletStreamId } from '../../domain/wallet/wallet.stream';
import { amountLocal } from '../../domain/money/money';
import { RecordedEvent } from '../ports/event-store.port';
import { deterministicEventId } from '../shared/event-ids';
import { FieldChecks, holdsFields, isExactly, isText, isTextOrNull } from '../shared/resource-checks';
import { PartnerEventFactsData, WEBHOOK_EVENTS, WebhookEventName } from './webhook-events';
import { WalletLowBalanceReached } from '../../domain/wallet/low-balance';

/** The log events that announce an outcome to the partner (by webhook and in the events feed). */
export type PartnerEventSource = TransactionSettled | WalletRefunded | WalletLowBalanceReached;

export const PARTNER_EVENT_SOURCES = typesOf<PartnerEventSource['type']>({
  TransactionSettled: true,
  WalletRefunded: true,
  WalletLowBalanceReached: true,
});

/** One partner-visible event: what the webhook delivery and the feed entry are made of. */
export interface PartnerEventFacts {
  /** The webhook's delivery id and the feed's event id: one id per (order, event). */
  eventId: string;
  event: WebhookEventName;
  orderId: string;
  partnerId: string;
  environment: Environment;
  /** What the triggering event said (operator_ref and settled_at, refunded_at, or the balance and threshold). */
  facts: PartnerEventFactsData;
}

export const partnerEventId = (orderId: string, event: WebhookEventName): string =>
  deterministicEventId(orderId, event);

/** A settlement announces transaction.succeeded; a refund after a failure announces transaction.failed. */
export function partnerEventOf(event: RecordedEvent): PartnerEventFacts | null {
  if (event.type === 'TransactionSettled') {
    const data = event.data;
    const { partnerId, environment } = event.metadata;
    if (!partnerId || !environment) return null;
    return {
      eventId: partnerEventId(data.orderId, WEBHOOK_EVENTS.succeeded),
      event: WEBHOOK_EVENTS.succeeded,
      orderId: data.orderId,
      partnerId,
      environment,
      facts: { operatorRef: data.operatorRef, settledAt: data.settledAt },
    };
  }
  if (event.type === 'WalletRefunded') {
    const wallet = parseWalletStreamId(event.streamId);
    if (!wallet) return null;
    const data = event.data;
    return {
      eventId: partnerEventId(data.orderId, WEBHOOK_EVENTS.failed),
      event: WEBHOOK_EVENTS.failed,
      orderId: data.orderId,
      ...wallet,
      facts: { refundedAt: data.refundedAt },
    };
  }
  if (event.type === 'WalletLowBalanceReached') {
    const data = event.data;
    return {
      eventId: partnerEventId(data.orderId, WEBHOOK_EVENTS.lowBalance),
      event: WEBHOOK_EVENTS.lowBalance,
      orderId: data.orderId,
      partnerId: data.partnerId,
      environment: data.environment,
      facts: { availableBalance: data.balanceAfter, threshold: data.threshold, reachedAt: data.reachedAt },
    };
  }
  return null;
}

/** The order's facts an event body shows besides the event's own. */
export interface PartnerEventOrder {
  amount: string;
  currency: Currency;
  reference: string | null;
}

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

/** The JSON body of a webhook and of a feed entry, byte for byte the same for both. */
export function partnerEventBody(
  event: Pick<PartnerEventFacts, 'eventId' | 'event' | 'orderId' | 'facts'>,
  order: PartnerEventOrder,
): string {
  return JSON.stringify(partnerEventResource(event, order));
}

function partnerEventResource(
  event: Pick<PartnerEventFacts, 'eventId' | 'event' | 'orderId' | 'facts'>,
  order: PartnerEventOrder,
): PartnerEventResource {
  const amount = amountLocal(order.amount, order.currency);
  if (event.event === WEBHOOK_EVENTS.lowBalance) {
    // The wallet's available balance fell below the partner's threshold with this order's debit.
    return {
      event_id: event.eventId,
      event: event.event,
      order_id: event.orderId,
      amount_local: amount,
      currency: order.currency,
      available_balance: event.facts.availableBalance ?? null,
      low_balance_threshold: event.facts.threshold ?? null,
      occurred_at: event.facts.reachedAt ?? null,
    };
  }
  if (event.event === WEBHOOK_EVENTS.succeeded) {
    return {
      event_id: event.eventId,
      event: event.event,
      order_id: event.orderId,
      operator_ref: event.facts.operatorRef ?? null,
      amount_local: amount,
      currency: order.currency,
      reference: order.reference,
      settled_at: event.facts.settledAt ?? null,
    };
  }
  return {
    event_id: event.eventId,
    event: event.event,
    order_id: event.orderId,
    amount_local: amount,
    currency: order.currency,
    refunded_at: event.facts.refundedAt ?? null,
  };
}

/**
 * A webhook body read back from where it was kept (the events feed): checked field by field to be
 * a body partnerEventBody writes, so it is answered as the resource it is.
 */
export function readPartnerEventBody(body: string): PartnerEventResource {
  const value: unknown = JSON.parse(body);
  if (holdsFields(value, SUCCEEDED) || holdsFields(value, FAILED) || holdsFields(value, LOW_BALANCE)) return value;
  throw new Error('a kept partner event body is not the body of a partner event');
}

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
