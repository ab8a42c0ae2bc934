import { Inject } from '@nestjs/common';
import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { Environment } from '../../domain/shared/environment';
import { OPERATOR_ACTIONS, OperatorAction, OperatorActions } from '../ports/operator-actions.port';

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

/** What one operator did in the back office, newest first. */
export interface OperatorAuditResource {
  operator: string;
  actions: OperatorActionResource[];
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
 * What one operator did in the back office: every event whose recorded actor is that operator
 * (the break-glass owner is `break-glass`), newest first. An unknown name has no actions: an
 * empty list, not a 404 (names of earlier releases' typed X-Operator-Id headers are listed too).
 */
@QueryHandler(AuditOperator)
export class AuditOperatorHandler implements IQueryHandler<AuditOperator> {
  constructor(@Inject(OPERATOR_ACTIONS) private readonly actions: OperatorActions) {}

  async execute({ name, limit }: AuditOperator): Promise<OperatorAuditResource> {
    const actions = await this.actions.actionsOf(name, limit);
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
    };
  }
}
