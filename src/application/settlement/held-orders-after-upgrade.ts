import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { CLOCK, Clock } from '../ports/clock.port';
import { JOB_QUEUE, JobQueue } from '../ports/job-queue.port';
import { READ_MODELS, ReadModels } from '../ports/read-models.port';
import { JOB_KINDS } from '../shared/job-kinds';

/** Held orders looked at when a process starts; a longer queue of held orders is a matter for people first. */
const AT_MOST = 10_000;

/**
 * Orders held before held orders were followed (decision 0117) had no look-up
 * left: each gets one now, which then goes on on the hold's own schedule until the provider's horizon. The job
 * id is fixed per order, so several processes starting together schedule it once.
 */
@Injectable()
export class HeldOrdersAfterUpgrade implements OnApplicationBootstrap {
  private readonly logger = new Logger('Settlement');

  constructor(
    @Inject(READ_MODELS) private readonly readModels: ReadModels,
    @Inject(JOB_QUEUE) private readonly jobs: JobQueue,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    try {
      const held = await this.readModels.heldOrders(AT_MOST);
      const now = this.clock.now();
      // A sandbox provider has no horizon: its held orders are not asked about again.
      for (const order of held.filter((order) => order.environment === 'live'))
        await this.jobs.schedule({
          id: `${JOB_KINDS.pollOrder}:${order.orderId}:held-followed`,
          kind: JOB_KINDS.pollOrder,
          dueAt: now,
          payload: { orderId: order.orderId, environment: order.environment },
        });
    } catch (error) {
      // The read models may not exist yet on a first start; held orders then have their own look-ups.
      this.logger.warn(
        `held orders were not looked at on start: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
}
