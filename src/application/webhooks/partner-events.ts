import { Environment } from '../../domain/shared/environment';
import { TransactionSettled } from '../../domain/transaction/transaction.events';
import { WalletRefunded } from '../../domain/wallet/wallet.events';
import { typesOf } from '../../domain/shared/event-types';
import { parseWalletStreamId } from '../../domain/wallet/wallet.stream';
import { RecordedEvent } from '../ports/event-store.port';
import { deterministicEventId } from '../shared/event-ids';
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
