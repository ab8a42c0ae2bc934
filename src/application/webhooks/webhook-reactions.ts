import { TransactionSettled } from '../../domain/transaction/transaction.events';
import { WalletRefunded } from '../../domain/wallet/wallet.events';
import { parseWalletStreamId } from '../../domain/wallet/wallet.stream';
import { RecordedEvent } from '../ports/event-store.port';
import { Job } from '../ports/job-queue.port';
import { Reaction } from '../process-managers/reaction';
import { deterministicEventId } from '../shared/event-ids';
import { JOB_KINDS } from '../process-managers/job-kinds';
import { DeliverWebhookPayload, WEBHOOK_EVENTS, webhookJobId } from './webhook-events';

/** A settlement announces transaction.succeeded; a refund after a failure announces transaction.failed (to partners with a webhook URL). */
export const webhookReactions: Reaction = {
  handles: new Set(['TransactionSettled', 'WalletRefunded']),
  jobsFor(event: RecordedEvent): Job[] {
    let payload: DeliverWebhookPayload;
    if (event.type === 'TransactionSettled') {
      const data = event.data as TransactionSettled['data'];
      const { partnerId, environment } = event.metadata;
      if (!partnerId || !environment) return [];
      payload = {
        deliveryId: deterministicEventId(data.orderId, WEBHOOK_EVENTS.succeeded),
        event: WEBHOOK_EVENTS.succeeded,
        orderId: data.orderId,
        partnerId,
        environment,
        attempt: 1,
        manual: false,
        facts: { operatorRef: data.operatorRef, settledAt: data.settledAt },
      };
    } else {
      const wallet = parseWalletStreamId(event.streamId);
      if (!wallet) return [];
      const data = event.data as WalletRefunded['data'];
      payload = {
        deliveryId: deterministicEventId(data.orderId, WEBHOOK_EVENTS.failed),
        event: WEBHOOK_EVENTS.failed,
        orderId: data.orderId,
        ...wallet,
        attempt: 1,
        manual: false,
        facts: { refundedAt: data.refundedAt },
      };
    }
    return [
      {
        id: webhookJobId(payload.deliveryId, 1),
        kind: JOB_KINDS.deliverWebhook,
        dueAt: new Date(event.metadata.occurredAt),
        payload: { ...payload },
        onlyIfWebhookUrl: { partnerId: payload.partnerId, environment: payload.environment },
      },
    ];
  },
};
