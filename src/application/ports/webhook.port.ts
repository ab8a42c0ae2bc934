import { Environment } from '../../domain/shared/environment';

export type WebhookSendResult =
  { kind: 'response'; statusCode: number; latencyMs: number } | { kind: 'error'; error: string; latencyMs: number };

export interface WebhookRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  environment: Environment;
}

/** Posts one webhook. Targets outside the outbound-address policy are refused, also after DNS resolution; failures come back as categories. */
export interface WebhookSender {
  send(request: WebhookRequest): Promise<WebhookSendResult>;
}

export type DeliveryState = 'PENDING' | 'RETRYING' | 'SUCCEEDED' | 'FAILED';
export const DELIVERY_STATES: readonly DeliveryState[] = ['PENDING', 'RETRYING', 'SUCCEEDED', 'FAILED'];

export interface WebhookAttempt {
  attempt: number;
  attemptedAt: string;
  /** Where this attempt went (the partner's URL at that moment); null when there was none, or for attempts recorded before URLs were kept per attempt. */
  url: string | null;
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
}

export interface WebhookDelivery {
  deliveryId: string;
  partnerId: string;
  environment: Environment;
  event: string;
  orderId: string;
  url: string;
  body: string;
  state: DeliveryState;
  createdAt: string;
  updatedAt: string;
  attempts: WebhookAttempt[];
}

/** The record of every delivery and every attempt, for partners and operators. */
export interface WebhookDeliveryStore {
  /** Creates the delivery once; a second call with the same id returns the stored one. */
  open(delivery: Omit<WebhookDelivery, 'state' | 'attempts' | 'updatedAt'>): Promise<WebhookDelivery>;
  /** Records an attempt; false if that attempt number was recorded already (a re-run after a crash). */
  recordAttempt(deliveryId: string, attempt: WebhookAttempt, state: DeliveryState): Promise<boolean>;
  get(deliveryId: string): Promise<WebhookDelivery | null>;
  list(filter: {
    partnerId?: string;
    environment?: Environment;
    state?: DeliveryState;
    limit: number;
  }): Promise<WebhookDelivery[]>;
}

/** Seals secrets that the service must read back (webhook secrets) so they never sit in the log in clear. */
export interface SecretBox {
  /** Under the newest server secret. */
  seal(plaintext: string): string;
  /** Under whichever secret of the ring sealed it; throws if none did. */
  open(sealed: string): string;
  /** Whether it was sealed under the newest secret (a re-seal leaves it as it is). */
  sealedUnderNewest(sealed: string): boolean;
}

export const WEBHOOK_SENDER = Symbol('WebhookSender');
export const WEBHOOK_DELIVERY_STORE = Symbol('WebhookDeliveryStore');
export const SECRET_BOX = Symbol('SecretBox');
