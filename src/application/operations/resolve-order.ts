import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { contradictsProvider, providerWordOf } from '../../domain/reconciliation/provider-word';
import { Actor } from '../../domain/shared/actor';
import { CLOCK, Clock } from '../ports/clock.port';
import { EVENTS_BY_CORRELATION, EventsByCorrelation } from '../ports/events-by-correlation.port';
import { debitAmong } from '../orders/debit-of-order';
import { RecordedEvent } from '../ports/event-store.port';
import { PROJECTION_BARRIER, ProjectionBarrier, READ_MODELS, ReadModels } from '../ports/read-models.port';
import { OrderLifecycle } from '../settlement/order-lifecycle';
import { ServiceError } from '../shared/service-error';
import { AdminOrderResource, adminOrderResource } from './admin-order-resource';

export class ResolveOrder extends Command<AdminOrderResource> {
  constructor(
    readonly orderId: string,
    readonly outcome: 'success' | 'failed',
    readonly reason: string,
    readonly operator: Actor,
    /** Resolve even against what the provider's reports said of the order (see `resolutionAgainstProvider`). */
    readonly againstReconciliation = false,
  ) {
    super();
  }
}

/**
 * An operator settles or fails a held order; a failure is refunded once by the refund process. A
 * resolution that says the opposite of what reconciliation found in the provider's reports (failing
 * an order the provider reports paid, which would refund delivered money) is refused unless the
 * operator says it is meant (`againstReconciliation`), having checked with the provider.
 */
@CommandHandler(ResolveOrder)
export class ResolveOrderHandler implements ICommandHandler<ResolveOrder> {
  constructor(
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(READ_MODELS) private readonly readModels: ReadModels,
    @Inject(EVENTS_BY_CORRELATION) private readonly events: EventsByCorrelation,
    @Inject(PROJECTION_BARRIER) private readonly barrier: ProjectionBarrier,
    private readonly lifecycle: OrderLifecycle,
  ) {}

  async execute({
    orderId,
    outcome,
    reason,
    operator,
    againstReconciliation,
  }: ResolveOrder): Promise<AdminOrderResource> {
    // The order's history across its streams: its debit, and what reconciliation found of it.
    const history = await this.events.readByCorrelationId(orderId);
    if (!againstReconciliation) refuseAgainstProvider(orderId, outcome, history);
    const result = await this.lifecycle.apply(
      orderId,
      { type: 'ResolveTransaction', outcome, reason, operator, at: this.clock.now().toISOString() },
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
    const view = await this.readModels.order(orderId);
    if (!view) throw new ServiceError('not_found', `no order ${orderId}`);
    return adminOrderResource(view);
  }
}

/** Refuses a resolution that says the opposite of the provider's last recorded word on the order. */
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
