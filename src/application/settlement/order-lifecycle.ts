import { Environment } from '../../domain/shared/environment';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { Actor, systemActor } from '../../domain/shared/actor';
import { DomainError } from '../../domain/shared/domain-error';
import { transactionDecider, TransactionCommand, TransactionState } from '../../domain/transaction/transaction.decider';
import { TransactionEvent, TransactionInitiated, transactionStream } from '../../domain/transaction/transaction.events';
import { CLOCK, Clock } from '../ports/clock.port';
import { GlobalPosition } from '../ports/event-store.port';
import { ProviderNotSentError, ProviderOrder, ProviderOutcome } from '../ports/provider-gateway.port';
import { JOB_QUEUE, JobQueue } from '../ports/job-queue.port';
import { DeciderRunner, KnownState } from '../shared/decider-runner';
import { metadata } from '../shared/event-envelope';
import { deterministicEventId } from '../shared/event-ids';
import { JOB_KINDS } from '../shared/job-kinds';
import { nextHeldLookUp } from '../../domain/transaction/held-follow-up';
import { Finding } from '../../domain/reconciliation/reconciliation';
import { OrderRouting } from '../routing/order-routing';
import { FindingRecorder } from '../reconciliation/finding-recorder';

/** When an order that may have reached its provider is looked up again after an answer that decided nothing. */
export const LOOK_AGAIN_AFTER_MS = 30_000;

/** Which call gave an answer: a submission (an attempt to place the order) or a look-up. */
export type ProviderCall = 'submit' | 'poll';

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
        // A submission of an order already in doubt is, for an adapter that never repeats one, a look-up.
        outcomeCommand(outcome, call === 'submit' && known?.state.providerMayHaveIt !== true ? 'submit' : 'poll', at),
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
    // A submission of an order already in doubt is, for an adapter that never repeats one, a look-up.
    const asked = call === 'submit' && known?.state.providerMayHaveIt !== true ? 'submit' : 'poll';
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
      this.warnOfLateAnswers(result.events, result.state);
      await this.recordMismatchFindings(result.events, result.state);
    }
    return result.ok
      ? { ok: true, state: result.state, revision: result.revision, position: result.position, events: result.events }
      : result;
  }

  /** A provider answer after an outcome changes no status: finance has to act on it. A held order it ends is told. */
  private warnOfLateAnswers(events: readonly TransactionEvent[], state: TransactionState): void {
    for (const event of events) {
      if (
        (event.type === 'TransactionSettled' || event.type === 'TransactionFailed') &&
        !event.data.resolvedBy &&
        state.heldAt
      ) {
        this.logger.warn(
          `order ${event.data.orderId}: held since ${state.heldAt}, ended by the provider's word: ${event.type === 'TransactionSettled' ? 'succeeded' : `failed (${event.data.reason}), refunded`}`,
        );
      }
      if (event.type === 'TransactionSuccessMismatched') {
        const { orderId, reason } = event.data;
        this.logger.warn(
          `order ${orderId}: held, the provider's success does not match it: ${reason}; finance has a finding`,
        );
      }
      if (event.type === 'TransactionFailureWithheld') {
        const { orderId, reason } = event.data;
        this.logger.warn(
          `order ${orderId}: not failed on "${reason}": an earlier attempt may have reached the provider, so only its record of the order (or its confirmed absence) may fail it`,
        );
      }
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
   * (docs/decisions/0117-held-orders-followed.md). The time is fixed by the hold, so every path that
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
    await this.jobs.schedule({
      id: `${JOB_KINDS.pollOrder}:${orderId}:${dueAt.getTime()}`,
      kind: JOB_KINDS.pollOrder,
      dueAt,
      payload: { orderId, environment },
    });
  }

  /** A success that does not match its order is a finding for finance at once, beside the hold. */
  private async recordMismatchFindings(events: readonly TransactionEvent[], state: TransactionState): Promise<void> {
    const order = state.order;
    const provider = order?.route?.provider;
    if (!order || !provider) return;
    for (const event of events) {
      if (event.type !== 'TransactionSuccessMismatched') continue;
      const { transactionId, amount, currency, reason } = event.data;
      // Filed under the day the provider dates its transaction, as that day's reconciliation would file it.
      const at = event.data.upstreamAt ?? event.data.at;
      const finding: Finding = {
        kind: 'amount_mismatch',
        orderId: order.orderId,
        partnerId: order.partnerId,
        upstream: { customIdentifier: order.orderId, transactionId, status: 'succeeded', amount, currency, at },
        ours: {
          orderId: order.orderId,
          partnerId: order.partnerId,
          status: 'DISPUTED',
          amount: order.amount,
          currency: order.currency,
          placedAt: order.placedAt,
          operatorRef: null,
        },
        detail: `the provider's success does not match the order: ${reason}`,
      };
      await this.findings.record(provider, at.slice(0, 10), [finding], systemActor('settlement'), this.clock.now());
    }
  }

  /** The result, or null when another path already gave the order its final outcome (nothing more to do). */
  private async expectOk(pending: Promise<LifecycleResult>): Promise<LifecycleApplied | null> {
    const result = await pending;
    if (result.ok) return result;
    if (result.error.code !== 'invalid_state') throw new Error(result.error.detail);
    return null;
  }
}

/**
 * The command that records a provider's answer to a submission (an attempt that may have placed
 * the order) or a look-up. An unknown answer to the first puts the order in doubt; to the second
 * it is evidence.
 */
export function outcomeCommand(outcome: ProviderOutcome, call: ProviderCall, at: Date): TransactionCommand {
  switch (outcome.status) {
    case 'succeeded':
      return { type: 'SettleTransaction', operatorRef: outcome.operatorRef, at: at.toISOString() };
    case 'failed':
      return { type: 'FailTransaction', reason: outcome.reason, basis: outcome.basis, at: at.toISOString() };
    case 'pending':
      return { type: 'RecordSubmission', providerReference: outcome.providerReference, at: at.toISOString() };
    case 'unknown':
      return call === 'submit'
        ? { type: 'RecordAttemptInDoubt', reason: outcome.reason, at: at.toISOString() }
        : { type: 'RecordLookUp', result: outcome.reason, at: at.toISOString() };
    case 'mismatch': {
      const { transactionId, amount, currency } = outcome.upstream;
      return {
        type: 'HoldOnMismatch',
        mismatch: {
          reason: outcome.reason,
          operatorRef: outcome.operatorRef,
          transactionId,
          amount,
          currency,
          at: at.toISOString(),
          upstreamAt: outcome.upstream.at,
        },
      };
    }
  }
}

/** The command that records a call without a usable answer. */
function unansweredCommand(error: unknown, call: ProviderCall, attempt: number, at: Date): TransactionCommand {
  const reason = error instanceof Error ? error.message : String(error);
  if (call === 'poll') return { type: 'RecordLookUp', result: `no answer: ${reason}`, at: at.toISOString() };
  return error instanceof ProviderNotSentError
    ? { type: 'RecordAttemptNotSent', attempt, reason, at: at.toISOString() }
    : { type: 'RecordAttemptInDoubt', reason, at: at.toISOString() };
}

/**
 * What an event's id is derived from: an order has one outcome and one of each step, and the
 * evidence of its attempts and look-ups is one event per attempt (by run number) or moment.
 */
export function eventIdParts(event: TransactionEvent): string[] {
  switch (event.type) {
    case 'TransactionSettled':
    case 'TransactionFailed':
      return ['outcome'];
    case 'TransactionAttemptNotSent':
      return [event.type, String(event.data.attempt)];
    case 'TransactionAttemptInDoubt':
    case 'TransactionLookedUp':
    case 'TransactionFailureWithheld':
      return [event.type, event.data.at];
    case 'TransactionSuccessMismatched':
      return [event.type];
    default:
      return [event.type];
  }
}
