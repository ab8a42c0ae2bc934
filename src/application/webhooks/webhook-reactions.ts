import { RecordedEvent } from '../ports/event-store.port';
import { Job } from '../ports/job-queue.port';
import { Reaction, SettingsAtScheduling } from '../ports/reaction.port';
import { JOB_KINDS } from '../shared/job-kinds';
import { DeliverWebhookPayload } from '../ports/job-payloads';
import { webhookJobId } from './webhook-events';
import { PARTNER_EVENT_SOURCES, PartnerEventSource, partnerEventOf } from './partner-events';

/** The deliveries among a batch's jobs (a reaction's batch holds only its own kind). */
const deliveriesOf = (jobs: readonly Job[]): Job<typeof JOB_KINDS.deliverWebhook>[] =>
  jobs.filter((job): job is Job<typeof JOB_KINDS.deliverWebhook> => job.kind === JOB_KINDS.deliverWebhook);

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
      },
    ];
  },
  /**
   * A delivery is scheduled only for a partner with a webhook URL when the outcome is processed: a partner who
   * polls costs settlement no job per order. (The delivery reads the URL again when it runs.)
   */
  async stillWanted(jobs: readonly Job[], settings: SettingsAtScheduling): Promise<Job[]> {
    const deliveries = deliveriesOf(jobs);
    const hasUrl = await settings.withWebhookUrl(deliveries.map((job) => job.payload));
    return deliveries.filter((job) => hasUrl(job.payload));
  },
};
