import { Inject, Injectable } from '@nestjs/common';
import { Actor, systemActor } from '../../domain/shared/actor';
import { DomainError } from '../../domain/shared/domain-error';
import { transactionDecider, TransactionCommand, TransactionState } from '../../domain/transaction/transaction.decider';
import { TransactionEvent, transactionStreamId } from '../../domain/transaction/transaction.events';
import { CLOCK, Clock } from '../ports/clock.port';
import { GlobalPosition } from '../ports/event-store.port';
import { ProviderOrder, ProviderOutcome } from '../ports/provider-gateway.port';
import { JOB_QUEUE, JobQueue } from '../ports/job-queue.port';
import { DeciderRunner, KnownState } from '../shared/decider-runner';
import { metadata } from '../shared/event-envelope';
import { deterministicEventId } from '../shared/event-ids';
import { JOB_KINDS } from './job-kinds';

export type LifecycleResult =
  | { ok: true; state: TransactionState; revision: number; position: GlobalPosition | null }
  | { ok: false; error: DomainError };

/**
 * Applies commands to an order's stream. Each kind of event gets an id fixed by the
 * order, so an order is initiated, settled, failed or held at most once, whoever tries.
 */
@Injectable()
export class OrderLifecycle {
  constructor(
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(JOB_QUEUE) private readonly jobs: JobQueue,
    private readonly runner: DeciderRunner,
  ) {}

  load(orderId: string): Promise<{ state: TransactionState; revision: number }> {
    return this.runner.load(transactionDecider, transactionStreamId(orderId));
  }

  /** `known`: the order's state and revision as the caller has just seen them, to skip reading its stream. */
  async apply(
    orderId: string,
    command: TransactionCommand,
    actor: Actor = systemActor('settlement'),
    known?: KnownState<TransactionState>,
  ): Promise<LifecycleResult> {
    const now = this.clock.now();
    const result = await this.runner.handle(transactionDecider, transactionStreamId(orderId), command, {
      known,
      metadata: (state) => {
        const order = command.type === 'InitiateTransaction' ? command.order : state.order;
        return metadata({ partnerId: order?.partnerId ?? null, environment: order?.environment ?? null, correlationId: orderId, actor, at: now });
      },
      eventId: (event: TransactionEvent) => deterministicEventId(orderId, event.type === 'TransactionSettled' || event.type === 'TransactionFailed' ? 'outcome' : event.type),
    });
    return result.ok ? { ok: true, state: result.state, revision: result.revision, position: result.position } : result;
  }

  /** Records what the provider said; a pending answer with a delay schedules the next poll. */
  async recordOutcome(order: ProviderOrder, environment: string, outcome: ProviderOutcome, known?: KnownState<TransactionState>): Promise<void> {
    const at = this.clock.now();
    const settlement = systemActor('settlement');
    switch (outcome.status) {
      case 'succeeded':
        await this.expectOk(this.apply(order.orderId, { type: 'SettleTransaction', operatorRef: outcome.operatorRef, at: at.toISOString() }, settlement, known));
        return;
      case 'failed':
        await this.expectOk(this.apply(order.orderId, { type: 'FailTransaction', reason: outcome.reason, at: at.toISOString() }, settlement, known));
        return;
      case 'pending':
        await this.expectOk(
          this.apply(order.orderId, { type: 'RecordSubmission', providerReference: outcome.providerReference, at: at.toISOString() }, settlement, known),
        );
        if (outcome.pollAfterMs !== null) {
          const dueAt = new Date(at.getTime() + outcome.pollAfterMs);
          await this.jobs.schedule({
            id: `${JOB_KINDS.pollOrder}:${order.orderId}:${dueAt.getTime()}`,
            kind: JOB_KINDS.pollOrder,
            dueAt,
            payload: { orderId: order.orderId, environment },
          });
        }
        return;
    }
  }

  private async expectOk(pending: Promise<LifecycleResult>): Promise<void> {
    const result = await pending;
    // A refusal here means another path already gave the order its final outcome; nothing more to do.
    if (!result.ok && result.error.code !== 'invalid_state') throw new Error(result.error.detail);
  }
}
