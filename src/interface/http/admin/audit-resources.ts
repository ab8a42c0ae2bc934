import type { OperatorAudit } from '../../../application/audit/audit-operator';
import type { OrderAudit } from '../../../application/audit/audit-order';
import { BackOfficeActionDetail, BackOfficeActionKind } from '../../../application/ports/back-office-action-log.port';
import { RecordedEvent } from '../../../application/ports/event-store.port';
import { OperatorAction } from '../../../application/ports/operator-actions.port';
import { traceIdOf } from '../../../application/ports/trace-context.port';
import { OperatorRole } from '../../../domain/back-office/operator-role';
import { Actor } from '../../../domain/shared/actor';
import { Environment } from '../../../domain/shared/environment';

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

/** One event an operator caused, as the audit shows it. */
export interface OperatorActionResource {
  position: string;
  occurred_at: string;
  event_type: string;
  stream_id: string;
  revision: number;
  event_id: string;
  partner_id: string | null;
  environment: Environment | null;
  correlation_id: string;
  data: OperatorAction['data'];
}

/** One thing an operator did that is not an event (a webhook re-send, a rebuild), as the audit shows it. */
export interface OperatorActionOutsideLogResource {
  action_id: string;
  occurred_at: string;
  action: BackOfficeActionKind;
  subject: string;
  partner_id: string | null;
  environment: Environment | null;
  /** The token it was done with (null: the break-glass token), and its role. */
  operator_id: string | null;
  role: OperatorRole;
  detail: BackOfficeActionDetail;
}

/** What one operator did in the back office, newest first: the events they caused, and the rest. */
export interface OperatorAuditResource {
  operator: string;
  actions: OperatorActionResource[];
  actions_outside_log: OperatorActionOutsideLogResource[];
}

export const orderAuditResource = (audit: OrderAudit): OrderAuditResource => ({
  order_id: audit.orderId,
  partner_id: audit.partnerId,
  environment: audit.environment,
  outcome: audit.outcome,
  events: audit.events.map(auditedEventResource),
});

const auditedEventResource = (event: RecordedEvent): AuditedEventResource => ({
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

export const operatorAuditResource = (audit: OperatorAudit): OperatorAuditResource => ({
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
    operator_id: action.operatorId,
    role: action.role,
    detail: action.detail,
  })),
});
