import { Inject, Injectable } from '@nestjs/common';
import { Currency } from '../../domain/money/currency';
import { Environment } from '../../domain/shared/environment';
import { OrderProduct } from '../../domain/wallet/order-product';
import { CLOCK, Clock } from '../ports/clock.port';
import { Job, JobHandler, JobRunResult } from '../ports/job-queue.port';
import { PROVIDER_DIRECTORY, ProviderDirectory, ProviderOrder } from '../ports/provider-gateway.port';
import { JOB_KINDS, holdStuckOrderJobId } from './job-kinds';
import { transactionDecider } from '../../domain/transaction/transaction.decider';
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
}

/** Settlement, step 1: opens the order's stream from its debit and submits it upstream. */
@Injectable()
export class SubmitOrderJob implements JobHandler {
  readonly kind = JOB_KINDS.submitOrder;

  constructor(
    @Inject(PROVIDER_DIRECTORY) private readonly providers: ProviderDirectory,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly lifecycle: OrderLifecycle,
  ) {}

  async run(job: Job): Promise<JobRunResult> {
    const { orderId, partnerId, environment, amount, currency, product, reference, placedAt } = job.payload as unknown as SubmitOrderPayload;
    const order: ProviderOrder = { orderId, amount, currency, product, placedAt };
    // A first run finds no stream (the order is new); a retried one is read from the stream.
    const initiated = await this.lifecycle.apply(
      orderId,
      { type: 'InitiateTransaction', order: { ...order, partnerId, environment, reference } },
      undefined,
      { state: transactionDecider.initialState, revision: -1 },
    );
    if (!initiated.ok) throw new Error(initiated.error.detail);
    const status = initiated.state.status;
    if (status !== 'INITIATED' && status !== 'PENDING') return {};
    const provider = this.providers.forEnvironment(environment);
    if (!provider) throw new Error(`no ${environment} provider is configured for order ${orderId}`);
    const now = this.clock.now();
    // A retried job finds the order already submitted and asks for its outcome instead.
    const outcome = status === 'INITIATED' ? await provider.submit(order, now) : await provider.poll(order, now);
    await this.lifecycle.recordOutcome(order, environment, outcome, { state: initiated.state, revision: initiated.revision });
    // A final answer (or one another path already gave) leaves the stuck-order check nothing to hold.
    return outcome.status === 'pending' ? {} : { supersedes: [holdStuckOrderJobId(orderId)] };
  }
}
