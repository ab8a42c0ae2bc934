import { Environment } from '../../domain/shared/environment';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { Actor, systemActor } from '../../domain/shared/actor';
import { DomainError } from '../../domain/shared/domain-error';
import { transactionDecider, TransactionCommand, TransactionState } from '../../domain/transaction/transaction.decider';
import { TransactionEvent, TransactionInitiated, transactionStream } from '../../domain/transaction/transaction.events';
import { CLOCK, Clock } from '../ports/clock.port';
import { GlobalPosition } from '../ports/event-store.port';
import { ProviderOrder, ProviderOutcome } from '../ports/provider-gateway.port';
import { JOB_QUEUE, Job, JobQueue } from '../ports/job-queue.port';
import { PollOrderPayload } from '../ports/job-payloads';
import { DeciderRunner, KnownState } from '../shared/decider-runner';
import { metadata } from '../shared/event-envelope';
import { deterministicEventId } from '../shared/event-ids';
import { JOB_KINDS } from '../shared/job-kinds';
import { nextHeldLookUp } from '../../domain/transaction/held-follow-up';
import { OrderRouting } from '../routing/order-routing';
import { FindingRecorder } from '../reconciliation/finding-recorder';
import { ProviderCall, askedAs, outcomeCommand, unansweredCommand } from './provider-answer-commands';
import { eventIdParts } from './order-event-ids';
import { lateAnswerWarnings } from './late-answer-warnings';
import { mismatchFindings } from './mismatch-findings';

/** When an order that may have reached its provider is looked up again after an answer that decided nothing. */
const LOOK_AGAIN_AFTER_MS = 30_000;

/** A look-up of an order at its provider: one per order and due time, whoever schedules it. */
export const lookUpJob = (payload: PollOrderPayload, dueAt: Date): Job<'poll-order'> => ({
  id: `${JOB_KINDS.pollOrder}:${payload.orderId}:${dueAt.getTime()}`,
  kind: JOB_KINDS.pollOrder,
  dueAt,
  payload,
});

export interface LifecycleApplied {
  ok: true;
  state: TransactionState;
  revision: number;
  position: GlobalPosition | null;
  events: TransactionEvent[];
}

export type LifecycleResult = LifecycleApplied | { ok: false; error: DomainError };

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
    private readonly routing: OrderRouting,
    private readonly findings: FindingRecorder,
  ) {}

  load(orderId: string): Promise<{ state: TransactionState; revision: number }> {
    return this.runner.load(transactionDecider, transactionStream(orderId));
  }

  /**
   * Puts the order in doubt (an attempt may have reached the provider unrecorded): from then on only the provider's
   * word about it, or its confirmed absence, can fail it. Returns the order as it then is.
   */
  async recordInDoubt(
    orderId: string,
    reason: string,
    known: KnownState<TransactionState>,
  ): Promise<{ state: TransactionState; revision: number }> {
    const command: TransactionCommand = { type: 'RecordAttemptInDoubt', reason, at: this.clock.now().toISOString() };
    const result = await this.apply(orderId, command, systemActor('settlement'), known);
    if (!result.ok) throw new Error(result.error.detail);
    return { state: result.state, revision: result.revision };
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
  async initiateWithAnswer(order: TransactionInitiated['data'], outcome: ProviderOutcome): Promise<TransactionState> {
    const at = this.clock.now();
    const result = await this.expectOk(
      this.applyInTurn(
        order.orderId,
        [{ type: 'InitiateTransaction', order }, outcomeCommand(outcome, 'submit', at)],
        systemActor('settlement'),
        { state: transactionDecider.initialState, revision: -1 },
      ),
    );
    await this.followUp(order.orderId, order.environment, outcome, result, at);
    return result?.state ?? transactionDecider.initialState;
  }

  /**
   * A new order whose first submission failed: its initiation and what the failure means, in one
   * append (the order is in doubt unless nothing was sent).
   */
  async initiateUnanswered(order: TransactionInitiated['data'], error: unknown): Promise<void> {
    const at = this.clock.now();
    await this.expectOk(
      this.applyInTurn(
        order.orderId,
        [{ type: 'InitiateTransaction', order }, unansweredCommand(error, 'submit', 1, at)],
        systemActor('settlement'),
        { state: transactionDecider.initialState, revision: -1 },
      ),
    );
  }

  /** Records what the provider said; an answer that leaves the order open schedules the next look-up. */
  async recordOutcome(
    order: ProviderOrder,
    environment: Environment,
    outcome: ProviderOutcome,
    known?: KnownState<TransactionState>,
    call: ProviderCall = 'poll',
  ): Promise<TransactionState | null> {
    const at = this.clock.now();
    const result = await this.expectOk(
      this.apply(
        order.orderId,
        outcomeCommand(outcome, askedAs(call, known?.state), at),
        systemActor('settlement'),
        known,
      ),
    );
    await this.followUp(order.orderId, environment, outcome, result, at);
    return result?.state ?? null;
  }

  /**
   * Records a call that got no usable answer: a submission that may have reached the provider puts
   * the order in doubt (one that sent nothing says so, with its run number); a look-up of an order
   * the provider may have is kept as evidence.
   */
  async recordUnanswered(
    orderId: string,
    error: unknown,
    call: ProviderCall,
    attempt: number,
    known?: KnownState<TransactionState>,
  ): Promise<void> {
    const at = this.clock.now();
    const asked = askedAs(call, known?.state);
    await this.expectOk(
      this.apply(orderId, unansweredCommand(error, asked, attempt, at), systemActor('settlement'), known),
    );
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
    const result = await this.runner.handleInTurn(transactionDecider, transactionStream(orderId), commands, {
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
      eventId: (event: TransactionEvent) => deterministicEventId(orderId, ...eventIdParts(event)),
    });
    if (result.ok) {
      for (const warning of lateAnswerWarnings(result.events, result.state)) this.logger.warn(warning);
      for (const { provider, day, finding } of mismatchFindings(result.events, result.state)) {
        await this.findings.record(provider, day, [finding], systemActor('settlement'), this.clock.now());
      }
    }
    return result.ok
      ? { ok: true, state: result.state, revision: result.revision, position: result.position, events: result.events }
      : result;
  }

  /**
   * The next look-up of an order the answer left open: when a pending answer asks for one, and
   * after any answer that decided nothing (unknown, or a failure withheld because an earlier
   * attempt may have reached the provider). A held order is asked about on its own schedule.
   */
  private async followUp(
    orderId: string,
    environment: Environment,
    outcome: ProviderOutcome,
    result: LifecycleApplied | null,
    at: Date,
  ): Promise<void> {
    const status = result?.state.status;
    if (status === 'DISPUTED') {
      await this.followHeld(orderId, result?.state ?? null, at);
      return;
    }
    if (status !== 'INITIATED' && status !== 'PENDING') return;
    const withheld = result?.events.some((event) => event.type === 'TransactionFailureWithheld') ?? false;
    const delayMs =
      outcome.status === 'pending'
        ? outcome.pollAfterMs
        : outcome.status === 'unknown'
          ? (outcome.retryAfterMs ?? LOOK_AGAIN_AFTER_MS)
          : withheld
            ? LOOK_AGAIN_AFTER_MS
            : null;
    if (delayMs === null) return;
    await this.scheduleLookUp(orderId, environment, new Date(at.getTime() + delayMs));
  }

  /**
   * Schedules a held order's next look-up, until its provider's horizon for the product
   * (decision 0117). The time is fixed by the hold, so every path that
   * schedules it schedules the same job.
   */
  async followHeld(orderId: string, state: TransactionState | null, at: Date = this.clock.now()): Promise<Date | null> {
    const order = state?.order;
    if (!order || state.status !== 'DISPUTED' || !state.heldAt) return null;
    const next = nextHeldLookUp(new Date(state.heldAt), at, this.horizonOf(state));
    if (next) await this.scheduleLookUp(orderId, order.environment, next);
    return next;
  }

  /** Until when the order's provider may still give its final word. */
  horizonOf(state: TransactionState): Date {
    const order = state.order;
    if (!order) return new Date(0);
    let horizonMs = 0;
    try {
      const gateway = this.routing.gatewayOf(order.environment, order.route, `order ${order.orderId}`);
      horizonMs = gateway.deliveryHorizonMs?.(order.product.kind) ?? 0;
    } catch {
      // A provider no longer configured cannot be asked: the order waits for a person.
    }
    return new Date(Date.parse(order.placedAt) + horizonMs);
  }

  private async scheduleLookUp(orderId: string, environment: Environment, dueAt: Date): Promise<void> {
    await this.jobs.schedule(lookUpJob({ orderId, environment }, dueAt));
  }

  /** The result, or null when another path already gave the order its final outcome (nothing more to do). */
  private async expectOk(pending: Promise<LifecycleResult>): Promise<LifecycleApplied | null> {
    const result = await pending;
    if (result.ok) return result;
    if (result.error.code !== 'invalid_state') throw new Error(result.error.detail);
    return null;
  }
}
