import { Inject } from '@nestjs/common';
import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { Actor } from '../../domain/shared/actor';
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
import { traceIdOf } from '../ports/trace-context.port';

/** One event of an order's history, as the audit shows it. */
export interface AuditedEventResource {
  /** `commit/prepare` of the event's global position. */
  position: string;
  stream_id: string;
  revision: number;
  event_type: string;
  schema_version: number;
  event_id: string;
  occurred_at: string;
  recorded_at: string;
  actor: Actor;
  causation_id: string | null;
  trace_id: string | null;
  data: RecordedEvent['data'];
}

/** An order's whole history across streams, and the state its events leave it in. */
export interface OrderAuditResource {
  order_id: string;
  partner_id: string | null;
  environment: Environment | null;
  /** Internal names: INITIATED, PENDING, DISPUTED, SUCCESS, FAILED; null when the order was never placed here. */
  outcome: string | null;
  events: AuditedEventResource[];
}

export class AuditOrder extends Query<OrderAuditResource> {
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

  async execute({ orderId }: AuditOrder): Promise<OrderAuditResource> {
    const events = (await this.events.readByCorrelationId(orderId)).filter(
      (event) =>
        WALLET_EVENT_TYPES.has(event.type) ||
        TRANSACTION_EVENT_TYPES.has(event.type) ||
        RECONCILIATION_EVENT_TYPES.has(event.type),
    );
    if (events.length === 0) throw new ServiceError('not_found', `no order ${orderId}`);
    const first = events[0];
    return {
      order_id: orderId,
      partner_id: first.metadata.partnerId,
      environment: first.metadata.environment,
      outcome: outcomeOf(orderId, events),
      events: events.map(auditedEvent),
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

function auditedEvent(event: RecordedEvent): AuditedEventResource {
  return {
    position: `${event.position.commit}/${event.position.prepare}`,
    stream_id: event.streamId,
    revision: event.revision,
    event_type: event.type,
    schema_version: event.schemaVersion,
    event_id: event.eventId,
    occurred_at: event.metadata.occurredAt,
    recorded_at: event.recordedAt,
    actor: event.metadata.actor,
    causation_id: event.metadata.causationId,
    // The trace of the request or job that appended the event (null when tracing was off).
    trace_id: traceIdOf(event.metadata.traceparent),
    data: event.data,
  };
}
