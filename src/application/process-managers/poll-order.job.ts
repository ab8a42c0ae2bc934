import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock } from '../ports/clock.port';
import { Job, JobHandler, JobRunResult } from '../ports/job-queue.port';
import { PROVIDER_DIRECTORY, ProviderDirectory } from '../ports/provider-gateway.port';
import { JOB_KINDS, holdStuckOrderJobId } from './job-kinds';
import { OrderLifecycle } from './order-lifecycle';

/** Settlement, step 2: asks the provider again about an order it left pending. */
@Injectable()
export class PollOrderJob implements JobHandler {
  readonly kind = JOB_KINDS.pollOrder;

  constructor(
    @Inject(PROVIDER_DIRECTORY) private readonly providers: ProviderDirectory,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly lifecycle: OrderLifecycle,
  ) {}

  async run(job: Job): Promise<JobRunResult> {
    const { orderId } = job.payload as { orderId: string };
    const { state } = await this.lifecycle.load(orderId);
    const order = state.order;
    if (!order || !['INITIATED', 'PENDING'].includes(state.status)) return {};
    const provider = this.providers.forEnvironment(order.environment);
    if (!provider) throw new Error(`no ${order.environment} provider is configured for order ${orderId}`);
    const providerOrder = { orderId, amount: order.amount, currency: order.currency, product: order.product, placedAt: order.placedAt, providerReference: state.providerReference };
    const outcome = await provider.poll(providerOrder, this.clock.now());
    await this.lifecycle.recordOutcome(providerOrder, order.environment, outcome);
    return outcome.status === 'pending' ? {} : { supersedes: [holdStuckOrderJobId(orderId)] };
  }
}
