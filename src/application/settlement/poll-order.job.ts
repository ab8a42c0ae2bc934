import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock } from '../ports/clock.port';
import { Job, JobHandler, JobRunResult } from '../ports/job-queue.port';
import { ProviderOutcome } from '../ports/provider-gateway.port';
import { OrderRouting } from '../routing/order-routing';
import { JOB_KINDS } from '../shared/job-kinds';
import { holdStuckOrderJobId } from './stuck-order-check';
import { OrderLifecycle } from './order-lifecycle';
import { providerOrderOf } from './provider-answer-commands';
import { isOpen, isUndecided } from '../../domain/transaction/transaction.decider';

/**
 * Settlement, step 2: asks the provider again about an order it left open, or about a held one until its
 * provider's horizon (decision 0117). A look-up never sends the order.
 */
@Injectable()
export class PollOrderJob implements JobHandler<'poll-order'> {
  readonly kind = JOB_KINDS.pollOrder;

  constructor(
    private readonly routing: OrderRouting,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly lifecycle: OrderLifecycle,
  ) {}

  async run(job: Job<'poll-order'>): Promise<JobRunResult> {
    const { orderId, inDoubtReason } = job.payload;
    let { state, revision } = await this.lifecycle.load(orderId);
    if (inDoubtReason && state.status === 'INITIATED' && state.inDoubtSince === null) {
      // A run of its submission may have reached the provider unrecorded (a moved history): from now on
      // only the provider's word about this order, or its confirmed absence, can fail it.
      ({ state, revision } = await this.lifecycle.recordInDoubt(orderId, inDoubtReason, { state, revision }));
    }
    const order = state.order;
    if (!order || !isUndecided(state.status)) return {};
    // A held order nothing was ever sent of is driven by its submission's retries alone (they send, or fail it at the horizon).
    if (state.status === 'DISPUTED' && !state.providerMayHaveIt) return {};
    const providerOrder = providerOrderOf(orderId, order, state);
    let outcome: ProviderOutcome;
    try {
      const provider = this.routing.gatewayOf(order.environment, order.route, `order ${orderId}`);
      outcome = await provider.poll(providerOrder, this.clock.now());
    } catch (error) {
      await this.lifecycle.recordUnanswered(orderId, error, 'poll', 0, { state, revision });
      // A held order's next look-up is on its own schedule, not the queue's retries.
      if (state.status === 'DISPUTED') {
        await this.lifecycle.followHeld(orderId, state);
        return {};
      }
      throw error;
    }
    const after = await this.lifecycle.recordOutcome(providerOrder, order.environment, outcome, { state, revision });
    return after && isOpen(after.status) ? {} : { supersedes: [holdStuckOrderJobId(orderId)] };
  }
}
