import { Inject } from '@nestjs/common';
import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { Environment } from '../../domain/shared/environment';
import {
  BACK_OFFICE_ACTION_LOG,
  BackOfficeActionDetail,
  BackOfficeActionKind,
  BackOfficeActionLog,
} from '../ports/back-office-action-log.port';
import { OPERATOR_ACTIONS, OperatorAction, OperatorActions } from '../ports/operator-actions.port';
import { OperatorRole } from '../../domain/back-office/operator-role';

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

export class AuditOperator extends Query<OperatorAuditResource> {
  constructor(
    readonly name: string,
    readonly limit: number,
  ) {
    super();
  }
}

/**
 * What one operator did: the events recorded with that actor, and the re-sends and rebuilds they started,
 * which are not events (decision 0115); newest first, at most `limit`. An unknown name gets empty lists, not 404.
 */
@QueryHandler(AuditOperator)
export class AuditOperatorHandler implements IQueryHandler<AuditOperator> {
  constructor(
    @Inject(OPERATOR_ACTIONS) private readonly actions: OperatorActions,
    @Inject(BACK_OFFICE_ACTION_LOG) private readonly outsideLog: BackOfficeActionLog,
  ) {}

  async execute({ name, limit }: AuditOperator): Promise<OperatorAuditResource> {
    const [actions, outsideLog] = await Promise.all([
      this.actions.actionsOf(name, limit),
      this.outsideLog.actionsOf(name, limit),
    ]);
    return {
      operator: name,
      actions: actions.map((action) => ({
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
      actions_outside_log: outsideLog.map((action) => ({
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
    };
  }
}
