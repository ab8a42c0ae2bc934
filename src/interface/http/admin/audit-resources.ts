import type { OperatorAudit } from '../../../application/audit/audit-operator';
import type { OrderAudit } from '../../../application/audit/audit-order';
import { RecordedEvent } from '../../../application/ports/event-store.port';
import { traceIdOf } from '../../../application/ports/trace-context.port';

/** An order's whole history across streams, and the state its events leave it in. */
export const orderAuditResource = (audit: OrderAudit) => ({
  order_id: audit.orderId,
  partner_id: audit.partnerId,
  environment: audit.environment,
  // Internal names: INITIATED, PENDING, DISPUTED, SUCCESS, FAILED; null when the order was never placed here.
  outcome: audit.outcome,
  events: audit.events.map(auditedEventResource),
});

/** One event of an order's history, as the audit shows it. */
const auditedEventResource = (event: RecordedEvent) => ({
  // `commit/prepare` of the event's global position.
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
});

/** What one operator did in the back office, newest first: the events they caused, and the rest (re-sends, rebuilds). */
export const operatorAuditResource = (audit: OperatorAudit) => ({
  operator: audit.operator,
  actions: audit.actions.map((action) => ({
    position: action.position,
    occurred_at: action.occurredAt,
    event_type: action.eventType,
    stream_id: action.streamId,
    revision: action.revision,
    event_id: action.eventId,
    partner_id: action.partnerId,
    environment: action.environment,
    correlation_id: action.correlationId,
    data: action.data,
  })),
  actions_outside_log: audit.actionsOutsideLog.map((action) => ({
    action_id: action.actionId,
    occurred_at: action.at.toISOString(),
    action: action.action,
    subject: action.subject,
    partner_id: action.partnerId,
    environment: action.environment,
    // The token it was done with (null: the break-glass token), and its role.
    operator_id: action.operatorId,
    role: action.role,
    detail: action.detail,
  })),
});
