import { Inject, Injectable, Logger } from '@nestjs/common';
import { Actor, systemActor } from '../../domain/shared/actor';
import { DomainError } from '../../domain/shared/domain-error';
import { transactionDecider, TransactionCommand, TransactionState } from '../../domain/transaction/transaction.decider';
import {
  TransactionEvent,
  TransactionInitiated,
  transactionStreamId,
} from '../../domain/transaction/transaction.events';
import { CLOCK, Clock } from '../ports/clock.port';
import { GlobalPosition } from '../ports/event-store.port';
import { ProviderOrder, ProviderOutcome } from '../ports/provider-gateway.port';
import { JOB_QUEUE, JobQueue } from '../ports/job-queue.port';
import { DeciderRunner, KnownState } from '../shared/decider-runner';
import { metadata } from '../shared/event-envelope';
import { deterministicEventId } from '../shared/event-ids';
import { JOB_KINDS } from './job-kinds';

export type LifecycleResult =
  | { ok: true; state: TransactionState; revision: number; position: GlobalPosition | null; events: TransactionEvent[] }
  | { ok: false; error: DomainError };

/**
 * Applies commands to an order's stream. Each kind of event gets an id fixed by the
 * order, so an order is initiated, settled, failed or held at most once, whoever tries.
 */
@Injectable()
export class OrderLifecycle {
  private readonly logger = new Logger('Settlement');

  constructor(
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(JOB_QUEUE) private readonly jobs: JobQueue,
    private readonly runner: DeciderRunner,
  ) {}

  load(orderId: string): Promise<{ state: TransactionState; revision: number }> {
    return this.runner.load(transactionDecider, transactionStreamId(orderId));
  }

  /** `known`: the order's state and revision as the caller has just seen them, to skip reading its stream. */
  apply(
    orderId: string,
    command: TransactionCommand,
    actor: Actor = systemActor('settlement'),
    known?: KnownState<TransactionState>,
  ): Promise<LifecycleResult> {
    return this.applyInTurn(orderId, [command], actor, known);
  }

  /**
   * A new order's initiation and the provider's first answer, in one append. If the order's
   * stream exists already (a run before this one initiated it), the answer is recorded on it.
   */
  async initiateWithAnswer(order: TransactionInitiated['data'], outcome: ProviderOutcome): Promise<void> {
    const at = this.clock.now();
    await this.expectOk(
      this.applyInTurn(
        order.orderId,
        [{ type: 'InitiateTransaction', order }, outcomeCommand(outcome, at)],
        systemActor('settlement'),
        {
          state: transactionDecider.initialState,
          revision: -1,
        },
      ),
    );
    await this.schedulePoll(order.orderId, order.environment, outcome, at);
  }

  /** Records what the provider said; a pending answer with a delay schedules the next poll. */
  async recordOutcome(
    order: ProviderOrder,
    environment: string,
    outcome: ProviderOutcome,
    known?: KnownState<TransactionState>,
  ): Promise<void> {
    const at = this.clock.now();
    await this.expectOk(this.apply(order.orderId, outcomeCommand(outcome, at), systemActor('settlement'), known));
    await this.schedulePoll(order.orderId, environment, outcome, at);
  }

  private async applyInTurn(
    orderId: string,
    commands: readonly TransactionCommand[],
    actor: Actor,
    known?: KnownState<TransactionState>,
  ): Promise<LifecycleResult> {
    const now = this.clock.now();
    const initiation = commands.find(
      (command): command is Extract<TransactionCommand, { type: 'InitiateTransaction' }> =>
        command.type === 'InitiateTransaction',
    );
    const result = await this.runner.handleInTurn(transactionDecider, transactionStreamId(orderId), commands, {
      known,
      // Outcomes of the jobs of one claim arrive together: one write for all of them.
      gatherTurn: true,
      metadata: (state) => {
        const order = initiation?.order ?? state.order;
        return metadata({
          partnerId: order?.partnerId ?? null,
          environment: order?.environment ?? null,
          correlationId: orderId,
          actor,
          at: now,
        });
      },
      eventId: (event: TransactionEvent) =>
        deterministicEventId(
          orderId,
          event.type === 'TransactionSettled' || event.type === 'TransactionFailed' ? 'outcome' : event.type,
        ),
    });
    if (result.ok) this.warnOfLateAnswers(result.events);
    return result.ok
      ? { ok: true, state: result.state, revision: result.revision, position: result.position, events: result.events }
      : result;
  }

  /** A provider answer after a hold or an outcome changes no status: an operator (or finance) has to act on it. */
  private warnOfLateAnswers(events: readonly TransactionEvent[]): void {
    for (const event of events) {
      if (event.type === 'ProviderAnsweredAfterHold') {
        const { orderId, outcome, answeredAt } = event.data;
        this.logger.warn(
          `order ${orderId}: the provider answered ${outcome} at ${answeredAt}, after the order was held; resolve it accordingly`,
        );
      }
      if (event.type === 'ProviderAnsweredAfterOutcome') {
        const { orderId, outcome, answeredAt, recordedStatus, contradicts } = event.data;
        const verdict = contradicts
          ? 'contradicting the recorded outcome: finance must reconcile it'
          : 'after a manual resolution, which it confirms';
        this.logger.warn(
          `order ${orderId}: the provider answered ${outcome} at ${answeredAt} although the order is ${recordedStatus}, ${verdict}`,
        );
      }
    }
  }

  private async schedulePoll(orderId: string, environment: string, outcome: ProviderOutcome, at: Date): Promise<void> {
    if (outcome.status !== 'pending' || outcome.pollAfterMs === null) return;
    const dueAt = new Date(at.getTime() + outcome.pollAfterMs);
    await this.jobs.schedule({
      id: `${JOB_KINDS.pollOrder}:${orderId}:${dueAt.getTime()}`,
      kind: JOB_KINDS.pollOrder,
      dueAt,
      payload: { orderId, environment },
    });
  }

  private async expectOk(pending: Promise<LifecycleResult>): Promise<void> {
    const result = await pending;
    // A refusal here means another path already gave the order its final outcome; nothing more to do.
    if (!result.ok && result.error.code !== 'invalid_state') throw new Error(result.error.detail);
  }
}

/** The command that records a provider's answer. */
function outcomeCommand(outcome: ProviderOutcome, at: Date): TransactionCommand {
  switch (outcome.status) {
    case 'succeeded':
      return { type: 'SettleTransaction', operatorRef: outcome.operatorRef, at: at.toISOString() };
    case 'failed':
      return { type: 'FailTransaction', reason: outcome.reason, at: at.toISOString() };
    case 'pending':
      return { type: 'RecordSubmission', providerReference: outcome.providerReference, at: at.toISOString() };
  }
}
