import { Currency } from '../../domain/money/currency';
import { PartnerEventFactsData, WebhookEventName } from '../webhooks/webhook-events';

export const PARTNER_EVENT_BODIES = Symbol('PARTNER_EVENT_BODIES');

/** The order's facts an announcement shows besides the event's own. */
export interface AnnouncedOrder {
  amount: string;
  currency: Currency;
  reference: string | null;
}

/** A partner-visible event as the partner is told of it, by webhook and in the events feed. */
export interface PartnerEventAnnouncement {
  /** The webhook's delivery id and the feed's event id: one id per (order, event). */
  eventId: string;
  event: WebhookEventName;
  orderId: string;
  facts: PartnerEventFactsData;
  order: AnnouncedOrder;
}

/**
 * Writes an announcement as the JSON body a webhook sends; the events feed writes the same bytes with this port
 * when it is read (its read model keeps the facts, not the body), so the feed shows what was sent.
 */
export interface PartnerEventBodies {
  bodyOf(announcement: PartnerEventAnnouncement): string;
}
