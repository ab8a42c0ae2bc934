import { isWithheld } from '../../domain/shared/withheld-secret';
import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock } from '../ports/clock.port';
import { Job, JobHandler, JOB_QUEUE, JobQueue } from '../ports/job-queue.port';
import { READ_MODELS, ReadModels } from '../ports/read-models.port';
import {
  DeliveryState,
  SECRET_BOX,
  SecretBox,
  WEBHOOK_DELIVERY_STORE,
  WEBHOOK_SENDER,
  WebhookDeliveryStore,
  WebhookSender,
} from '../ports/webhook.port';
import { JOB_KINDS } from '../shared/job-kinds';
import { OrderLifecycle } from '../settlement/order-lifecycle';
import { PARTNER_EVENT_BODIES, PartnerEventBodies } from '../ports/partner-event-bodies.port';
import { DeliverWebhookPayload } from '../ports/job-payloads';
import { WEBHOOK_MAX_ATTEMPTS, WEBHOOK_RETRY_GAP_MS, webhookJobId } from './webhook-events';
import { signatureHeader } from './webhook-signature';

/**
 * One delivery attempt. Any 2xx is success; anything else (status, timeout, network error)
 * schedules the next attempt five minutes later, until the fourth attempt marks it FAILED.
 * The body is fixed at the first attempt; each attempt is signed afresh with its own timestamp.
 */
@Injectable()
export class DeliverWebhookJob implements JobHandler<'deliver-webhook'> {
  readonly kind = JOB_KINDS.deliverWebhook;

  constructor(
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(READ_MODELS) private readonly readModels: ReadModels,
    @Inject(WEBHOOK_DELIVERY_STORE) private readonly deliveries: WebhookDeliveryStore,
    @Inject(WEBHOOK_SENDER) private readonly sender: WebhookSender,
    @Inject(SECRET_BOX) private readonly box: SecretBox,
    @Inject(JOB_QUEUE) private readonly jobs: JobQueue,
    @Inject(PARTNER_EVENT_BODIES) private readonly bodies: PartnerEventBodies,
    private readonly lifecycle: OrderLifecycle,
  ) {}

  async run(job: Job<'deliver-webhook'>): Promise<void> {
    const payload = job.payload;
    const settings = await this.readModels.partnerSettings(payload.partnerId, payload.environment);
    let delivery = await this.deliveries.get(payload.deliveryId);
    if (!delivery) {
      // No endpoint configured when the outcome happened: nothing to announce; the partner polls.
      if (!settings.webhookUrl) return;
      delivery = await this.deliveries.open({
        deliveryId: payload.deliveryId,
        partnerId: payload.partnerId,
        environment: payload.environment,
        event: payload.event,
        orderId: payload.orderId,
        url: settings.webhookUrl,
        body: await this.body(payload),
        createdAt: this.clock.now().toISOString(),
      });
    }
    if (!payload.manual && (delivery.state === 'SUCCEEDED' || delivery.state === 'FAILED')) return;
    if (delivery.attempts.some((attempt) => attempt.attempt === payload.attempt)) return;

    const now = this.clock.now();
    const secrets = settings.webhookSecrets
      // A secret withheld from the export this history was imported from signs nothing: rotate it.
      .filter(
        (secret) => (secret.validUntil === null || new Date(secret.validUntil) > now) && !isWithheld(secret.sealed),
      )
      .map((secret) => this.box.open(secret.sealed));
    const url = settings.webhookUrl;
    const result = !url
      ? ({ kind: 'error', error: 'the partner removed the webhook URL', latencyMs: 0 } as const)
      : secrets.length
        ? await this.sender.send({
            url,
            environment: payload.environment,
            body: delivery.body,
            headers: {
              'content-type': 'application/json',
              'user-agent': 'partner-service-webhooks/1',
              'x-partner-event': payload.event,
              'x-partner-event-id': payload.deliveryId,
              'x-partner-signature': signatureHeader(secrets, Math.floor(now.getTime() / 1000), delivery.body),
            },
          })
        : ({ kind: 'error', error: 'no webhook secret is configured', latencyMs: 0 } as const);
    const succeeded = result.kind === 'response' && result.statusCode >= 200 && result.statusCode < 300;
    // An operator's re-send is a single attempt, except that it does not end automatic retries still to come.
    const retriesPending = delivery.state === 'PENDING' || delivery.state === 'RETRYING';
    const lastAttempt = payload.attempt >= WEBHOOK_MAX_ATTEMPTS || (payload.manual && !retriesPending);
    const state: DeliveryState = succeeded ? 'SUCCEEDED' : lastAttempt ? 'FAILED' : 'RETRYING';
    const recorded = await this.deliveries.recordAttempt(
      payload.deliveryId,
      {
        attempt: payload.attempt,
        attemptedAt: now.toISOString(),
        url,
        statusCode: result.kind === 'response' ? result.statusCode : null,
        latencyMs: result.latencyMs,
        error: result.kind === 'error' ? result.error : succeeded ? null : `answered ${result.statusCode}`,
      },
      state,
    );
    if (recorded && state === 'RETRYING') {
      const next: DeliverWebhookPayload = { ...payload, attempt: payload.attempt + 1, manual: false };
      await this.jobs.schedule({
        id: webhookJobId(payload.deliveryId, next.attempt),
        kind: JOB_KINDS.deliverWebhook,
        dueAt: new Date(now.getTime() + WEBHOOK_RETRY_GAP_MS),
        payload: { ...next },
      });
    }
  }

  private async body(payload: DeliverWebhookPayload): Promise<string> {
    const { state } = await this.lifecycle.load(payload.orderId);
    const order = state.order;
    if (!order) throw new Error(`webhook for unknown order ${payload.orderId}`);
    const { deliveryId: eventId, event, orderId, facts } = payload;
    const { amount, currency, reference } = order;
    return this.bodies.bodyOf({ eventId, event, orderId, facts, order: { amount, currency, reference } });
  }
}
