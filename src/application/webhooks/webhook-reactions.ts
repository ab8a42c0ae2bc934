import { RecordedEvent } from '../ports/event-store.port';
import { Job } from '../ports/job-queue.port';
import { Reaction, SettingsAtScheduling } from '../ports/reaction.port';
import { JOB_KINDS } from '../shared/job-kinds';
import { DeliverWebhookPayload, webhookJobId } from './webhook-events';
import { PARTNER_EVENT_SOURCES, partnerEventOf } from './partner-events';

const deliveryOf = (job: Job): DeliverWebhookPayload => job.payload as unknown as DeliverWebhookPayload;

/**
 * A settlement announces transaction.succeeded; a refund after a failure announces
 * transaction.failed (to partners with a webhook URL).
 */
export const webhookReactions: Reaction = {
  handles: new Set(PARTNER_EVENT_SOURCES),
  jobsFor(event: RecordedEvent): Job[] {
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
        payload: { ...payload },
      },
    ];
  },
  /**
   * A delivery is scheduled only for a partner with a webhook URL when the outcome is processed: a partner who
   * polls costs settlement no job per order. (The delivery reads the URL again when it runs.)
   */
  async stillWanted(jobs: readonly Job[], settings: SettingsAtScheduling): Promise<Job[]> {
    const hasUrl = await settings.withWebhookUrl(jobs.map(deliveryOf));
    return jobs.filter((job) => hasUrl(deliveryOf(job)));
  },
};
