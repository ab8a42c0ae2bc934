import { Inject } from '@nestjs/common';
import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { Environment } from '../../domain/shared/environment';
import { fold } from '../../domain/shared/decider';
import { TransactionStatus, transactionDecider } from '../../domain/transaction/transaction.decider';
import {
  TRANSACTION_EVENT_TYPES,
  TransactionEvent,
  transactionStreamId,
} from '../../domain/transaction/transaction.events';
import { WALLET_EVENT_TYPES } from '../../domain/wallet/wallet.events';
import { RECONCILIATION_EVENT_TYPES } from '../../domain/reconciliation/reconciliation.events';
import { RecordedEvent } from '../ports/event-store.port';
import { EVENTS_BY_CORRELATION, EventsByCorrelation } from '../ports/events-by-correlation.port';
import { ServiceError } from '../shared/service-error';

/** An order's whole history across streams, and the state its events leave it in. */
export interface OrderAudit {
  orderId: string;
  partnerId: string | null;
  environment: Environment | null;
  /** Null when the order was never placed here. */
  outcome: TransactionStatus | null;
  events: RecordedEvent[];
}

export class AuditOrder extends Query<OrderAudit> {
  constructor(readonly orderId: string) {
    super();
  }
}

/**
 * An order's whole history across streams, in the global order of the log: the wallet debit,
 * the transaction's own events (initiated, submitted, settled, failed or held), any refund, and
 * what reconciliation found about it (for a payment unknown to us, only that).
 */
@QueryHandler(AuditOrder)
export class AuditOrderHandler implements IQueryHandler<AuditOrder> {
  constructor(@Inject(EVENTS_BY_CORRELATION) private readonly events: EventsByCorrelation) {}

  async execute({ orderId }: AuditOrder): Promise<OrderAudit> {
    const events = (await this.events.readByCorrelationId(orderId)).filter(
      (event) =>
        WALLET_EVENT_TYPES.has(event.type) ||
        TRANSACTION_EVENT_TYPES.has(event.type) ||
        RECONCILIATION_EVENT_TYPES.has(event.type),
    );
    if (events.length === 0) throw new ServiceError('not_found', `no order ${orderId}`);
    const first = events[0];
    return {
      orderId,
      partnerId: first.metadata.partnerId,
      environment: first.metadata.environment,
      outcome: outcomeOf(orderId, events),
      events,
    };
  }
}

/**
 * The order's state as its events leave it (internal names: INITIATED, PENDING, DISPUTED, SUCCESS, FAILED): its own
 * stream folded by the decider that wrote it, so the audit can never tell another story than the order's rules.
 */
function outcomeOf(orderId: string, events: readonly RecordedEvent[]): TransactionStatus | null {
  if (!events.some((event) => event.type === 'WalletDebited' || event.type === 'TransactionInitiated')) return null;
  const streamId = transactionStreamId(orderId);
  const own = events.filter(
    (event): event is RecordedEvent<TransactionEvent> =>
      event.streamId === streamId && TRANSACTION_EVENT_TYPES.has(event.type),
  );
  const { status } = fold(transactionDecider, own);
  // Debited, its own stream not begun yet (its submission has not answered).
  return status === 'NONE' ? 'INITIATED' : status;
}
