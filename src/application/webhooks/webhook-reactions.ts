import { RecordedEvent } from '../ports/event-store.port';
import { Job } from '../ports/job-queue.port';
import { Reaction } from '../process-managers/reaction';
import { JOB_KINDS } from '../process-managers/job-kinds';
import { DeliverWebhookPayload } from '../ports/job-payloads';
import { webhookJobId } from './webhook-events';
import { PARTNER_EVENT_SOURCES, PartnerEventSource, partnerEventOf } from './partner-events';

/**
 * A settlement announces transaction.succeeded; a refund after a failure announces
 * transaction.failed (to partners with a webhook URL).
 */
export const webhookReactions: Reaction<PartnerEventSource> = {
  handles: PARTNER_EVENT_SOURCES,
  jobsFor(event: RecordedEvent<PartnerEventSource>): Job[] {
    const announced = partnerEventOf(event);
    if (!announced) return [];
    const payload: DeliverWebhookPayload = {
      deliveryId: announced.eventId,
      event: announced.event,
      orderId: announced.orderId,
      partnerId: announced.partnerId,
      environment: announced.environment,
      attempt: 1,
      manual: false,
      facts: announced.facts,
    };
    return [
      {
        id: webhookJobId(payload.deliveryId, 1),
        kind: JOB_KINDS.deliverWebhook,
        dueAt: new Date(event.metadata.occurredAt),
        payload,
        onlyIfWebhookUrl: { partnerId: payload.partnerId, environment: payload.environment },
      },
    ];
  },
};
