import { Inject, Injectable } from '@nestjs/common';
import { Money } from '../../domain/money/money';
import { systemActor } from '../../domain/shared/actor';
import { CLOCK, Clock } from '../ports/clock.port';
import { Job, JobHandler } from '../ports/job-queue.port';
import { metadata } from '../shared/event-envelope';
import { deterministicEventId } from '../shared/event-ids';
import { WalletCommandProcessor } from '../wallets/wallet-command-processor';
import { JOB_KINDS } from '../shared/job-kinds';
import { OrderLifecycle } from './order-lifecycle';

/**
 * Refund: only for an order whose stream says FAILED, for the amount it debited, under an
 * event id fixed by the order, so it happens once however often the job runs.
 */
@Injectable()
export class RefundOrderJob implements JobHandler<'refund-order'> {
  readonly kind = JOB_KINDS.refundOrder;

  constructor(
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly lifecycle: OrderLifecycle,
    private readonly wallets: WalletCommandProcessor,
  ) {}

  async run(job: Job<'refund-order'>): Promise<void> {
    const { orderId } = job.payload;
    const { state } = await this.lifecycle.load(orderId);
    const order = state.order;
    if (!order) throw new Error(`refund of unknown order ${orderId}`);
    if (state.status !== 'FAILED') return;
    const amount = Money.parse(order.amount, order.currency);
    if (!amount) throw new Error(`order ${orderId} has an unreadable amount`);
    const now = this.clock.now();
    const result = await this.wallets.execute(order.partnerId, order.environment, {
      command: {
        type: 'RefundWallet',
        orderId,
        amount,
        reason: state.failure?.resolvedBy
          ? `operator decision (${state.failure.resolvedBy.id}): ${state.failure.reason}`
          : `upstream failure: ${state.failure?.reason ?? 'no reason given'}`,
        at: now.toISOString(),
      },
      eventId: deterministicEventId(orderId, 'WalletRefunded'),
      metadata: metadata({
        partnerId: order.partnerId,
        environment: order.environment,
        correlationId: orderId,
        causationId: deterministicEventId(orderId, 'outcome'),
        actor: state.failure?.resolvedBy ?? systemActor('refunds'),
        at: now,
      }),
    });
    if (!result.ok) throw new Error(result.error.detail);
  }
}
