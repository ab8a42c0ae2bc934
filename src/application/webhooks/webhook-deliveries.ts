import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler, IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { Environment } from '../../domain/shared/environment';
import { CLOCK, Clock } from '../ports/clock.port';
import { JOB_QUEUE, JobQueue } from '../ports/job-queue.port';
import { BACK_OFFICE_ACTION_LOG, BackOfficeActionLog } from '../ports/back-office-action-log.port';
import { OperatorIdentity, actingOperator } from '../back-office/operator-identity';
import { DeliveryState, WEBHOOK_DELIVERY_STORE, WebhookDelivery, WebhookDeliveryStore } from '../ports/webhook.port';
import { JOB_KINDS } from '../shared/job-kinds';
import { ServiceError } from '../shared/service-error';
import { DeliverWebhookPayload } from '../ports/job-payloads';
import { WebhookEventName, webhookJobId } from './webhook-events';

export class ListWebhookDeliveries extends Query<WebhookDelivery[]> {
  constructor(
    readonly filter: { partnerId?: string; environment?: Environment; state?: DeliveryState; limit: number },
  ) {
    super();
  }
}

@QueryHandler(ListWebhookDeliveries)
export class ListWebhookDeliveriesHandler implements IQueryHandler<ListWebhookDeliveries> {
  constructor(@Inject(WEBHOOK_DELIVERY_STORE) private readonly deliveries: WebhookDeliveryStore) {}

  execute({ filter }: ListWebhookDeliveries): Promise<WebhookDelivery[]> {
    return this.deliveries.list(filter);
  }
}

export class GetWebhookDelivery extends Query<WebhookDelivery> {
  constructor(
    readonly deliveryId: string,
    /** When set, a delivery of another partner or environment does not exist. */
    readonly owner: { partnerId: string; environment: Environment } | null,
  ) {
    super();
  }
}

@QueryHandler(GetWebhookDelivery)
export class GetWebhookDeliveryHandler implements IQueryHandler<GetWebhookDelivery> {
  constructor(@Inject(WEBHOOK_DELIVERY_STORE) private readonly deliveries: WebhookDeliveryStore) {}

  async execute({ deliveryId, owner }: GetWebhookDelivery): Promise<WebhookDelivery> {
    const delivery = await this.deliveries.get(deliveryId);
    if (
      !delivery ||
      (owner && (delivery.partnerId !== owner.partnerId || delivery.environment !== owner.environment))
    ) {
      throw new ServiceError('not_found', `no webhook delivery ${deliveryId}`);
    }
    return delivery;
  }
}

/** Who asks for a re-send: the partner (of its own deliveries only) or a back-office operator. */
export type ResendRequester =
  { kind: 'partner'; partnerId: string; environment: Environment } | { kind: 'operator'; operator: OperatorIdentity };

/** The attempt a re-send scheduled. */
export interface ScheduledResend {
  deliveryId: string;
  attempt: number;
}

export class ResendWebhook extends Command<ScheduledResend> {
  constructor(
    readonly deliveryId: string,
    /** A partner's own re-send: a delivery of another partner or environment does not exist. */
    readonly requester: ResendRequester,
  ) {
    super();
  }
}

/**
 * A re-send: one more attempt now, to the partner's current URL and secret; asking again before it ran schedules
 * nothing more. An operator's re-send is recorded in the back-office action log.
 */
@CommandHandler(ResendWebhook)
export class ResendWebhookHandler implements ICommandHandler<ResendWebhook> {
  constructor(
    @Inject(WEBHOOK_DELIVERY_STORE) private readonly deliveries: WebhookDeliveryStore,
    @Inject(JOB_QUEUE) private readonly jobs: JobQueue,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(BACK_OFFICE_ACTION_LOG) private readonly actions: BackOfficeActionLog,
  ) {}

  async execute({ deliveryId, requester }: ResendWebhook): Promise<ScheduledResend> {
    const delivery = await this.deliveries.get(deliveryId);
    if (
      !delivery ||
      (requester.kind === 'partner' &&
        (delivery.partnerId !== requester.partnerId || delivery.environment !== requester.environment))
    )
      throw new ServiceError('not_found', `no webhook delivery ${deliveryId}`);
    const attempt = Math.max(0, ...delivery.attempts.map((entry) => entry.attempt)) + 1;
    const payload: DeliverWebhookPayload = {
      deliveryId,
      event: delivery.event as WebhookEventName,
      orderId: delivery.orderId,
      partnerId: delivery.partnerId,
      environment: delivery.environment,
      attempt,
      manual: true,
      facts: {},
    };
    await this.jobs.schedule({
      id: webhookJobId(deliveryId, attempt, true),
      kind: JOB_KINDS.deliverWebhook,
      dueAt: this.clock.now(),
      payload,
    });
    if (requester.kind === 'operator') {
      await this.actions.record({
        ...actingOperator(requester.operator),
        action: 'webhook_delivery_resent',
        subject: deliveryId,
        partnerId: delivery.partnerId,
        environment: delivery.environment,
        detail: { event: delivery.event, order_id: delivery.orderId, attempt },
        at: this.clock.now(),
      });
    }
    return { deliveryId, attempt };
  }
}
