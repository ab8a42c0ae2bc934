import { Inject, Injectable } from '@nestjs/common';
import { Currency } from '../../domain/money/currency';
import { Environment } from '../../domain/shared/environment';
import { OrderProduct } from '../../domain/wallet/order-product';
import { CLOCK, Clock } from '../ports/clock.port';
import { JOB_QUEUE, Job, JobHandler, JobQueue, JobRunResult } from '../ports/job-queue.port';
import { ProviderOrder, ProviderOutcome } from '../ports/provider-gateway.port';
import { RouteTarget } from '../../domain/routing/route';
import { OrderRouting } from '../routing/order-routing';
import { SERVICE_SETTINGS, ServiceSettings } from '../shared/service-settings';
import { JOB_KINDS, holdStuckOrderJob } from './job-kinds';
import { transactionDecider } from '../../domain/transaction/transaction.decider';
import { TransactionInitiated } from '../../domain/transaction/transaction.events';
import { OrderLifecycle } from './order-lifecycle';

/** The order as the debit event carried it. */
export interface SubmitOrderPayload {
  orderId: string;
  partnerId: string;
  environment: Environment;
  amount: string;
  currency: Currency;
  product: OrderProduct;
  reference: string | null;
  placedAt: string;
  /** Live orders: the route fixed at placement (absent from jobs scheduled before routes existed). */
  route?: RouteTarget | null;
}

/**
 * Settlement, step 1: submits the order from its debit upstream and opens the order's stream
 * with the answer (docs/decisions.md, "Submission: the provider first, then one append").
 * The stuck-order check is armed only for an order that may need it: one the provider left
 * pending, one whose submission failed, or one whose submission is tried again (a provider that
 * stays down or never answers must still get the order held). An order with a final answer at
 * once never gets one.
 */
@Injectable()
export class SubmitOrderJob implements JobHandler {
  readonly kind = JOB_KINDS.submitOrder;

  constructor(
    private readonly routing: OrderRouting,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(JOB_QUEUE) private readonly jobs: JobQueue,
    @Inject(SERVICE_SETTINGS) private readonly settings: ServiceSettings,
    private readonly lifecycle: OrderLifecycle,
  ) {}

  async run(job: Job, attempt = 1): Promise<JobRunResult> {
    const payload = job.payload as unknown as SubmitOrderPayload;
    const stuckCheck = holdStuckOrderJob(
      payload.orderId,
      new Date(Date.parse(payload.placedAt) + this.settings.stuckOrderAfterMs),
    );
    if (attempt > 1) {
      // A run before this one failed, or never finished (a crash, or a provider call that hung past
      // the lease): the check is armed before anything else, so the order is held even if this run hangs too.
      await this.jobs.schedule(stuckCheck);
      const outcome = await this.submitAgain(payload);
      // A final answer (or one another path already gave) leaves the check nothing to hold.
      return outcome?.status === 'pending' ? {} : { supersedes: [stuckCheck.id] };
    }
    let outcome: ProviderOutcome;
    try {
      outcome = await this.submitNew(payload);
    } catch (error) {
      await this.jobs.schedule(stuckCheck);
      throw error;
    }
    if (outcome.status === 'pending') await this.jobs.schedule(stuckCheck);
    // A first run arms the check only for a pending answer, so a final one has none to close.
    return {};
  }

  /**
   * The first run: the order is new, so it goes to the provider first and its initiation and the
   * answer are stored in one append. A crash before that append leaves nothing stored, and the
   * retried run submits the same order id again, which providers take as the same order. If the
   * provider call fails, the initiation is stored alone, so that the order can be held.
   */
  private async submitNew(payload: SubmitOrderPayload): Promise<ProviderOutcome> {
    const order = providerOrderOf(payload);
    let outcome: ProviderOutcome;
    try {
      const provider = this.routing.gatewayOf(payload.environment, payload.route, `order ${payload.orderId}`);
      outcome = await provider.submit(order, this.clock.now());
    } catch (error) {
      await this.lifecycle.apply(
        payload.orderId,
        { type: 'InitiateTransaction', order: initiationOf(payload) },
        undefined,
        {
          state: transactionDecider.initialState,
          revision: -1,
        },
      );
      throw error;
    }
    await this.lifecycle.initiateWithAnswer(initiationOf(payload), outcome);
    return outcome;
  }

  /** A retried run: the order's stream tells whether it was submitted already (then it is polled) or is settled. */
  private async submitAgain(payload: SubmitOrderPayload): Promise<ProviderOutcome | null> {
    const { orderId, environment } = payload;
    const order = providerOrderOf(payload);
    const initiated = await this.lifecycle.apply(orderId, {
      type: 'InitiateTransaction',
      order: initiationOf(payload),
    });
    if (!initiated.ok) throw new Error(initiated.error.detail);
    const status = initiated.state.status;
    if (status !== 'INITIATED' && status !== 'PENDING') return null;
    const provider = this.routing.gatewayOf(environment, payload.route, `order ${orderId}`);
    const now = this.clock.now();
    const outcome =
      status === 'INITIATED'
        ? await provider.submit({ ...order, resubmission: true }, now)
        : await provider.poll({ ...order, providerReference: initiated.state.providerReference }, now);
    await this.lifecycle.recordOutcome(order, environment, outcome, {
      state: initiated.state,
      revision: initiated.revision,
    });
    return outcome;
  }
}

const providerOrderOf = ({
  orderId,
  amount,
  currency,
  product,
  placedAt,
  route,
}: SubmitOrderPayload): ProviderOrder => ({ orderId, amount, currency, product, placedAt, route: route ?? null });

const initiationOf = ({
  orderId,
  partnerId,
  environment,
  amount,
  currency,
  product,
  reference,
  placedAt,
  route,
}: SubmitOrderPayload): TransactionInitiated['data'] => ({
  orderId,
  partnerId,
  environment,
  amount,
  currency,
  product,
  reference,
  placedAt,
  ...(route ? { route } : {}),
});
