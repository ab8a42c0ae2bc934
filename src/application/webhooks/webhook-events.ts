export const WEBHOOK_EVENTS = {
  succeeded: 'transaction.succeeded',
  failed: 'transaction.failed',
  lowBalance: 'wallet.low_balance',
} as const;
export type WebhookEventName = (typeof WEBHOOK_EVENTS)[keyof typeof WEBHOOK_EVENTS];

/** One initial attempt and three retries, five minutes apart. */
export const WEBHOOK_RETRY_GAP_MS = 5 * 60_000;
export const WEBHOOK_MAX_ATTEMPTS = 4;

/** What the event that triggered an announcement said: operator_ref and settled_at, refunded_at, or the balance and threshold. */
export interface PartnerEventFactsData {
  operatorRef?: string;
  settledAt?: string;
  refundedAt?: string;
  availableBalance?: string;
  threshold?: string;
  reachedAt?: string;
}

export const webhookJobId = (deliveryId: string, attempt: number, manual = false): string =>
  `deliver-webhook:${deliveryId}:${manual ? 'resend-' : ''}${attempt}`;
