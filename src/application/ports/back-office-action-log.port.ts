import { OperatorRole } from '../../domain/back-office/operator-role';
import { Environment } from '../../domain/shared/environment';

/**
 * What an operator can do that writes no event: a webhook re-send (a job), a read model's rebuild
 * (a blue/green copy), and an export of the history (`data export`, from the command line).
 * Everything else an operator does is an event of the log.
 */
export type BackOfficeActionKind = 'webhook_delivery_resent' | 'projection_rebuild_started' | 'history_exported';

export type BackOfficeActionDetail = Readonly<Record<string, string | number | boolean | null>>;

/** One such action, as it is recorded once it has been done. */
export interface BackOfficeAction {
  /** The operator's name, as on the events they cause (`break-glass` for ADMIN_TOKEN). */
  operator: string;
  /** The token it was done with; null for the break-glass token. */
  operatorId: string | null;
  role: OperatorRole;
  action: BackOfficeActionKind;
  /** What it was done to: the delivery's id, the projection's name. */
  subject: string;
  partnerId: string | null;
  environment: Environment | null;
  detail: BackOfficeActionDetail;
  at: Date;
}

export interface RecordedBackOfficeAction extends BackOfficeAction {
  /** Increasing in the order the actions were recorded. */
  actionId: string;
}

/**
 * The append-only record of the operators' actions that are not events (decision 0115).
 * Nothing updates or deletes a row; retention never touches it.
 */
export interface BackOfficeActionLog {
  record(action: BackOfficeAction): Promise<void>;
  /** One operator's, newest first, at most `limit`. */
  actionsOf(operator: string, limit: number): Promise<RecordedBackOfficeAction[]>;
}

export const BACK_OFFICE_ACTION_LOG = Symbol('BackOfficeActionLog');
