import type { ScheduledResend } from '../../application/webhooks/webhook-deliveries';
import { DeliveryState, WebhookDelivery } from '../../application/ports/webhook.port';
import { Environment } from '../../domain/shared/environment';

/** The WebhookAttempt resource: one attempt of a delivery. */
export interface WebhookAttemptResource {
  attempt: number;
  attempted_at: string;
  url: string | null;
  status_code: number | null;
  latency_ms: number;
  error: string | null;
}

/** The WebhookDelivery resource: one event on its way to a partner's webhook, with every attempt. */
export interface WebhookDeliveryResource {
  delivery_id: string;
  event_id: string;
  event: string;
  order_id: string;
  environment: Environment;
  url: string;
  state: DeliveryState;
  created_at: string;
  updated_at: string;
  attempts: WebhookAttemptResource[];
}

/** The WebhookDeliveryList resource: deliveries, newest first. */
export interface WebhookDeliveryListResource {
  count: number;
  deliveries: WebhookDeliveryResource[];
}

/** The WebhookResend resource: a re-send scheduled, one more attempt, now. */
export interface WebhookResendResource {
  delivery_id: string;
  scheduled_attempt: number;
}

export const deliveryResource = (delivery: WebhookDelivery): WebhookDeliveryResource => ({
  delivery_id: delivery.deliveryId,
  event_id: delivery.deliveryId,
  event: delivery.event,
  order_id: delivery.orderId,
  environment: delivery.environment,
  url: delivery.url,
  state: delivery.state,
  created_at: delivery.createdAt,
  updated_at: delivery.updatedAt,
  attempts: delivery.attempts.map((attempt) => ({
    attempt: attempt.attempt,
    attempted_at: attempt.attemptedAt,
    url: attempt.url,
    status_code: attempt.statusCode,
    latency_ms: attempt.latencyMs,
    error: attempt.error,
  })),
});

export const deliveryListResource = (deliveries: readonly WebhookDelivery[]): WebhookDeliveryListResource => ({
  count: deliveries.length,
  deliveries: deliveries.map(deliveryResource),
});

export const resendResource = ({ deliveryId, attempt }: ScheduledResend): WebhookResendResource => ({
  delivery_id: deliveryId,
  scheduled_attempt: attempt,
});
