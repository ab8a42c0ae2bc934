import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock } from '../ports/clock.port';
import { Job, JobHandler } from '../ports/job-queue.port';
import { SERVICE_SETTINGS, ServiceSettings } from '../shared/service-settings';
import { JOB_KINDS } from '../shared/job-kinds';
import { OrderLifecycle } from './order-lifecycle';

/**
 * An order with no final outcome after the configured age is held (DISPUTED) for an operator; no refund. A hold
 * means "a person should look", not "stop asking": its provider is asked until its horizon (decision 0117).
 */
@Injectable()
export class HoldStuckOrderJob implements JobHandler<'hold-stuck-order'> {
  readonly kind = JOB_KINDS.holdStuckOrder;

  constructor(
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(SERVICE_SETTINGS) private readonly settings: ServiceSettings,
    private readonly lifecycle: OrderLifecycle,
  ) {}

  async run(job: Job<'hold-stuck-order'>): Promise<void> {
    const { orderId } = job.payload;
    const seconds = Math.round(this.settings.stuckOrderAfterMs / 1000);
    const result = await this.lifecycle.apply(orderId, {
      type: 'HoldTransaction',
      reason: `no final outcome from the provider after ${seconds} s`,
      at: this.clock.now().toISOString(),
    });
    // The order stream may not exist yet if submission keeps failing; hold it once it does.
    if (!result.ok) throw new Error(result.error.detail);
    await this.lifecycle.followHeld(orderId, result.state);
  }
}
