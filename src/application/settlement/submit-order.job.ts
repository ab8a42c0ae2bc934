import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock } from '../ports/clock.port';
import { JOB_QUEUE, Job, JobHandler, JobQueue, JobRunResult } from '../ports/job-queue.port';
import { SubmitOrderPayload } from '../ports/job-payloads';
import { ProviderGateway, ProviderNotSentError, ProviderOrder, ProviderOutcome } from '../ports/provider-gateway.port';
import { OrderRouting } from '../routing/order-routing';
import { SERVICE_SETTINGS, ServiceSettings } from '../shared/service-settings';
import { JOB_KINDS } from '../shared/job-kinds';
import { holdStuckOrderJob } from './stuck-order-check';
import { TransactionState, isOpen } from '../../domain/transaction/transaction.decider';
import { initiationOfDebit } from './initiation-of-debit';
import { OrderLifecycle } from './order-lifecycle';

const stillOpen = (state: TransactionState | null): boolean => state !== null && isOpen(state.status);

/**
 * Not yet at the provider, as far as the log knows: every attempt provably sent nothing (a 429, an open breaker).
 * Such an order is still sent when held: a hold asks a person to look, not to stop (decision 0117).
 */
const neverSent = (state: TransactionState): boolean =>
  !state.providerMayHaveIt && (state.status === 'INITIATED' || state.status === 'DISPUTED');

/**
 * Settlement, step 1: submits the order upstream and opens its stream with the answer (decision 0036). The
 * stuck-order check is armed for every order without a final answer at once; an attempt that may have reached
 * the provider unrecorded puts the order in doubt (decision 0039).
 */
@Injectable()
export class SubmitOrderJob implements JobHandler<'submit-order'> {
  readonly kind = JOB_KINDS.submitOrder;

  constructor(
    private readonly routing: OrderRouting,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(JOB_QUEUE) private readonly jobs: JobQueue,
    @Inject(SERVICE_SETTINGS) private readonly settings: ServiceSettings,
    private readonly lifecycle: OrderLifecycle,
  ) {}

  async run(job: Job<'submit-order'>, attempt = 1): Promise<JobRunResult> {
    const payload = job.payload;
    const stuckCheck = holdStuckOrderJob(
      payload.orderId,
      new Date(Date.parse(payload.placedAt) + this.settings.stuckOrderAfterMs),
    );
    if (attempt > 1 || payload.inDoubtReason) {
      // A run before this one failed, or never finished (a crash, or a provider call that hung past
      // the lease), or may have (a moved history): the check is armed before anything else, so the
      // order is held even if this run hangs too.
      await this.jobs.schedule(stuckCheck);
      const state = await this.submitAgain(payload, attempt);
      // A final answer (or one another path already gave) leaves the check nothing to hold.
      return stillOpen(state) ? {} : { supersedes: [stuckCheck.id] };
    }
    let state: TransactionState;
    try {
      state = await this.submitNew(payload);
    } catch (error) {
      await this.jobs.schedule(stuckCheck);
      throw error;
    }
    if (stillOpen(state)) await this.jobs.schedule(stuckCheck);
    // A first run arms the check only for an order left open, so a final one has none to close.
    return {};
  }

  /**
   * The first run: provider first, then the initiation and the answer in one append; a crash in between leaves
   * nothing, and the retried run treats the order as in doubt.
   */
  private async submitNew(payload: SubmitOrderPayload): Promise<TransactionState> {
    const order = providerOrderOf(payload);
    let outcome: ProviderOutcome;
    try {
      outcome = await this.gatewayOf(payload).submit(order, this.clock.now());
    } catch (error) {
      await this.lifecycle.initiateUnanswered(initiationOfDebit(payload, payload), error);
      throw error;
    }
    return this.lifecycle.initiateWithAnswer(initiationOfDebit(payload, payload), outcome);
  }

  /**
   * A retried run: unless the run before recorded that it sent nothing, the order is put in doubt before the
   * provider is asked again, so the adapter looks it up rather than resending it.
   */
  private async submitAgain(payload: SubmitOrderPayload, attempt: number): Promise<TransactionState | null> {
    const { orderId, environment } = payload;
    const order = providerOrderOf(payload);
    const initiated = await this.lifecycle.apply(orderId, {
      type: 'InitiateTransaction',
      order: initiationOfDebit(payload, payload),
    });
    if (!initiated.ok) throw new Error(initiated.error.detail);
    let { state, revision } = initiated;
    if (!stillOpen(state) && !neverSent(state)) return state;
    if (state.status === 'DISPUTED' && this.clock.now().getTime() >= this.lifecycle.horizonOf(state).getTime())
      return this.failNeverSent(orderId, state, revision);
    if (neverSent(state) && state.inDoubtSince === null && state.notSentAttempt !== attempt - 1) {
      ({ state, revision } = await this.lifecycle.recordInDoubt(
        orderId,
        payload.inDoubtReason ?? `submission run ${attempt - 1} did not finish; it may have reached the provider`,
        { state, revision },
      ));
      // A held order that may now be at the provider is followed by its look-ups.
      if (!stillOpen(state)) return state;
    }
    const call = state.status === 'INITIATED' || neverSent(state) ? 'submit' : 'poll';
    const asked: ProviderOrder = {
      ...order,
      resubmission: state.inDoubtSince !== null,
      inDoubtSince: state.inDoubtSince,
      providerReference: state.providerReference,
    };
    let outcome: ProviderOutcome;
    try {
      const provider = this.gatewayOf(payload);
      outcome =
        call === 'submit'
          ? await provider.submit(asked, this.clock.now())
          : await provider.poll(asked, this.clock.now());
    } catch (error) {
      await this.lifecycle.recordUnanswered(orderId, error, call, attempt, { state, revision });
      throw error;
    }
    return this.lifecycle.recordOutcome(order, environment, outcome, { state, revision }, call);
  }

  /**
   * A held order every attempt of which was turned away unread, until its provider's horizon: the log proves the
   * provider never had it (each run recorded that it sent nothing), so it fails `not_sent` and is refunded.
   */
  private async failNeverSent(orderId: string, state: TransactionState, revision: number): Promise<TransactionState> {
    const horizon = this.lifecycle.horizonOf(state).toISOString();
    const result = await this.lifecycle.apply(
      orderId,
      {
        type: 'FailTransaction',
        reason: `never sent: every attempt until the provider's horizon (${horizon}) was turned away before it was read`,
        basis: 'not_sent',
        at: this.clock.now().toISOString(),
      },
      undefined,
      { state, revision },
    );
    if (!result.ok) throw new Error(result.error.detail);
    return result.state;
  }

  /** The order's provider; an order that cannot be routed (a configuration error) is not sent, and says so. */
  private gatewayOf({ environment, route, orderId }: SubmitOrderPayload): ProviderGateway {
    try {
      return this.routing.gatewayOf(environment, route, `order ${orderId}`);
    } catch (error) {
      throw new ProviderNotSentError(`order ${orderId} was not sent: ${(error as Error).message}`);
    }
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
