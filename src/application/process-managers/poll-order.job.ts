import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock } from '../ports/clock.port';
import { Job, JobHandler, JobRunResult } from '../ports/job-queue.port';
import { ProviderOrder } from '../ports/provider-gateway.port';
import { OrderRouting } from '../routing/order-routing';
import { JOB_KINDS, holdStuckOrderJobId } from './job-kinds';
import { OrderLifecycle } from './order-lifecycle';

/** Settlement, step 2: asks the provider again about an order it left pending. */
@Injectable()
export class PollOrderJob implements JobHandler {
  readonly kind = JOB_KINDS.pollOrder;

  constructor(
    private readonly routing: OrderRouting,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly lifecycle: OrderLifecycle,
  ) {}

  async run(job: Job): Promise<JobRunResult> {
    const { orderId } = job.payload as { orderId: string };
    const { state } = await this.lifecycle.load(orderId);
    const order = state.order;
    if (!order || !['INITIATED', 'PENDING'].includes(state.status)) return {};
    const provider = this.routing.gatewayOf(order.environment, order.route, `order ${orderId}`);
    const providerOrder: ProviderOrder = {
      orderId,
      amount: order.amount,
      currency: order.currency,
      product: order.product,
      placedAt: order.placedAt,
      route: order.route ?? null,
      providerReference: state.providerReference,
    };
    const outcome = await provider.poll(providerOrder, this.clock.now());
    await this.lifecycle.recordOutcome(providerOrder, order.environment, outcome);
    return outcome.status === 'pending' ? {} : { supersedes: [holdStuckOrderJobId(orderId)] };
  }
}
