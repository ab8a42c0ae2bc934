import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { contradictsProvider, providerWordOf } from '../../domain/reconciliation/provider-word';
import { OperatorRole } from '../../domain/back-office/operator-role';
import { ProviderAnswerAtResolution } from '../../domain/transaction/transaction.events';
import { resolutionContradicts } from '../../domain/transaction/resolution-rule';
import { ProviderAtResolution } from './provider-at-resolution';
import { Actor } from '../../domain/shared/actor';
import { CLOCK, Clock } from '../ports/clock.port';
import { EVENTS_BY_CORRELATION, EventsByCorrelation } from '../ports/events-by-correlation.port';
import { debitAmong } from '../orders/debit-of-order';
import { RecordedEvent } from '../ports/event-store.port';
import { PROJECTION_BARRIER, ProjectionBarrier, READ_MODELS, ReadModels } from '../ports/read-models.port';
import type { StoredOrderView } from '../ports/read-models.port';
import { OrderLifecycle } from '../settlement/order-lifecycle';
import { ServiceError } from '../shared/service-error';

/** A resolved order, with the provider's answer when it was resolved and whether an owner overrode it. */
export interface ResolvedOrder extends StoredOrderView {
  providerAnswer: ProviderAnswerAtResolution | null;
  againstProvider: boolean;
}

export class ResolveOrder extends Command<ResolvedOrder> {
  constructor(
    readonly orderId: string,
    readonly outcome: 'success' | 'failed',
    readonly reason: string,
    readonly operator: Actor,
    readonly role: OperatorRole,
    readonly overrides: {
      /** Resolve even against what the provider's reports said of the order (decision 0116). */
      againstReconciliation?: boolean;
      /** An owner resolves against the provider's answer (decision 0118). */
      againstProvider?: boolean;
    } = {},
  ) {
    super();
  }
}

/** An operator settles or fails a held order (a failure is refunded once), under the checks of decisions 0116 and 0118. */
@CommandHandler(ResolveOrder)
export class ResolveOrderHandler implements ICommandHandler<ResolveOrder> {
  constructor(
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(READ_MODELS) private readonly readModels: ReadModels,
    @Inject(EVENTS_BY_CORRELATION) private readonly events: EventsByCorrelation,
    @Inject(PROJECTION_BARRIER) private readonly barrier: ProjectionBarrier,
    private readonly lifecycle: OrderLifecycle,
    private readonly providerAtResolution: ProviderAtResolution,
  ) {}

  async execute({ orderId, outcome, reason, operator, role, overrides }: ResolveOrder): Promise<ResolvedOrder> {
    const againstProvider = overrides.againstProvider === true;
    if (againstProvider && role !== 'owner')
      throw new ServiceError('role_forbidden', "only an owner may resolve an order against its provider's answer");
    // The order's history across its streams: its debit, and what reconciliation found of it.
    const history = await this.events.readByCorrelationId(orderId);
    if (overrides.againstReconciliation !== true) refuseAgainstProvider(orderId, outcome, history);
    const asked = await this.providerAtResolution.ask(orderId);
    const providerAnswer = asked?.answer ?? null;
    if (asked && !againstProvider) refuseAgainstAnswer(orderId, outcome, asked.answer, asked.neverSent);
    const result = await this.lifecycle.apply(
      orderId,
      {
        type: 'ResolveTransaction',
        outcome,
        reason,
        operator,
        at: this.clock.now().toISOString(),
        ...(providerAnswer ? { providerAnswer } : {}),
        ...(againstProvider ? { againstProvider } : {}),
      },
      operator,
    );
    if (!result.ok) {
      // A debited order not yet submitted has no order stream yet: it exists, but it is not held.
      if (result.error.code === 'not_found' && debitAmong(history, orderId)) {
        throw new ServiceError('invalid_state', `order ${orderId} is not held for manual resolution`);
      }
      throw ServiceError.from(result.error);
    }
    await this.barrier.waitFor(result.position);
    const order = await this.readModels.order(orderId);
    if (!order) throw new ServiceError('not_found', `no order ${orderId}`);
    return { ...order, providerAnswer, againstProvider };
  }
}

/** Refuses a resolution the provider's answer at this moment does not allow (decision 0118). */
function refuseAgainstAnswer(
  orderId: string,
  outcome: 'success' | 'failed',
  answer: ProviderAnswerAtResolution,
  neverSent: boolean,
): void {
  if (!resolutionContradicts(outcome, answer.word, neverSent)) return;
  throw new ServiceError(
    'invalid_state',
    `asked just now, the provider answers ${answer.word} for order ${orderId} (${answer.detail}); resolving it as ${outcome} ` +
      `could ${outcome === 'failed' ? 'refund an order it may still deliver' : 'charge for an order it failed'}. It is asked ` +
      `again on its own schedule; an owner who has checked with the provider may resolve it with against_provider: true (CLI: --against-provider)`,
  );
}

function refuseAgainstProvider(
  orderId: string,
  outcome: 'success' | 'failed',
  history: readonly RecordedEvent[],
): void {
  const findings = history.flatMap((event) => (event.type === 'ReconciliationMismatchFound' ? [event.data] : []));
  const word = providerWordOf(findings);
  if (!word || !contradictsProvider(outcome, word)) return;
  throw new ServiceError(
    'invalid_state',
    `reconciliation found that the provider reports order ${orderId} ${word.status} (transaction ${word.transactionId}, ` +
      `${word.amount} ${word.currency}); resolving it as ${outcome} says the opposite. Check with the provider, then ` +
      `resolve it again with against_reconciliation: true (CLI: --against-reconciliation) if it is meant`,
  );
}
