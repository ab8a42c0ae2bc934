import {
  BackOfficeAction,
  BackOfficeActionDetail,
  BackOfficeActionKind,
  BackOfficeActionLog,
  RecordedBackOfficeAction,
} from '../../application/ports/back-office-action-log.port';
import { OperatorRole } from '../../domain/back-office/operator-role';
import { Environment } from '../../domain/shared/environment';
import { SchemaScript } from '../sql/migrations';
import { SqlExecutor } from '../sql/sql-database';

export const BACK_OFFICE_ACTIONS_SCHEMA: SchemaScript = {
  name: 'back-office-actions',
  sql: `
CREATE TABLE IF NOT EXISTS back_office_actions (
  action_id bigserial PRIMARY KEY,
  operator_name text NOT NULL,
  operator_id text,
  role text NOT NULL,
  action text NOT NULL,
  subject text NOT NULL,
  partner_id text,
  environment text,
  detail jsonb NOT NULL,
  occurred_at timestamptz NOT NULL
);
CREATE INDEX IF NOT EXISTS back_office_actions_by_operator ON back_office_actions (operator_name, action_id);
`,
};

interface ActionRow {
  action_id: string;
  operator_name: string;
  operator_id: string | null;
  role: OperatorRole;
  action: BackOfficeActionKind;
  subject: string;
  partner_id: string | null;
  environment: Environment | null;
  detail: BackOfficeActionDetail;
  occurred_at: Date;
}

export class SqlBackOfficeActionLog implements BackOfficeActionLog {
  constructor(private readonly db: SqlExecutor) {}

  async record(action: BackOfficeAction): Promise<void> {
    await this.db.query(
      `INSERT INTO back_office_actions
         (operator_name, operator_id, role, action, subject, partner_id, environment, detail, occurred_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [
        action.operator,
        action.operatorId,
        action.role,
        action.action,
        action.subject,
        action.partnerId,
        action.environment,
        JSON.stringify(action.detail),
        action.at.toISOString(),
      ],
    );
  }

  async actionsOf(operator: string, limit: number): Promise<RecordedBackOfficeAction[]> {
    const rows = await this.db.query<ActionRow>(
      `SELECT action_id::text, operator_name, operator_id, role, action, subject, partner_id, environment, detail,
              occurred_at
         FROM back_office_actions WHERE operator_name = $1 ORDER BY action_id DESC LIMIT $2`,
      [operator, limit],
    );
    return rows.map((row) => ({
      actionId: row.action_id,
      operator: row.operator_name,
      operatorId: row.operator_id,
      role: row.role,
      action: row.action,
      subject: row.subject,
      partnerId: row.partner_id,
      environment: row.environment,
      detail: row.detail,
      at: new Date(row.occurred_at),
    }));
  }
}
