import { Inject } from '@nestjs/common';
import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import {
  BACK_OFFICE_ACTION_LOG,
  BackOfficeActionLog,
  RecordedBackOfficeAction,
} from '../ports/back-office-action-log.port';
import { OPERATOR_ACTIONS, OperatorAction, OperatorActions } from '../ports/operator-actions.port';

/** What one operator did in the back office, newest first: the events they caused, and the rest. */
export interface OperatorAudit {
  operator: string;
  actions: OperatorAction[];
  actionsOutsideLog: RecordedBackOfficeAction[];
}

export class AuditOperator extends Query<OperatorAudit> {
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

  async execute({ name, limit }: AuditOperator): Promise<OperatorAudit> {
    const [actions, actionsOutsideLog] = await Promise.all([
      this.actions.actionsOf(name, limit),
      this.outsideLog.actionsOf(name, limit),
    ]);
    return { operator: name, actions, actionsOutsideLog };
  }
}
