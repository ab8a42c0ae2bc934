import { OperatorAction, OperatorActions } from '../../application/ports/operator-actions.port';
import { Environment } from '../../domain/shared/environment';
import { SqlExecutor } from '../sql/sql-database';

interface ActionRow {
  event_id: string;
  position_commit: string;
  position_prepare: string;
  stream_id: string;
  revision: number;
  event_type: string;
  occurred_at: Date;
  partner_id: string | null;
  environment: Environment | null;
  correlation_id: string;
  data: Record<string, unknown>;
}

export class SqlOperatorActions implements OperatorActions {
  constructor(private readonly db: SqlExecutor) {}

  async actionsOf(name: string, limit: number): Promise<OperatorAction[]> {
    const rows = await this.db.query<ActionRow>(
      `SELECT event_id, position_commit::text, position_prepare::text, stream_id, revision, event_type, occurred_at,
              partner_id, environment, correlation_id, data
       FROM rm_operator_actions WHERE actor_id = $1
       ORDER BY position_commit DESC, position_prepare DESC LIMIT $2`,
      [name, limit],
    );
    return rows.map((row) => ({
      position: `${row.position_commit}/${row.position_prepare}`,
      streamId: row.stream_id,
      revision: row.revision,
      eventType: row.event_type,
      eventId: row.event_id,
      occurredAt: new Date(row.occurred_at).toISOString(),
      partnerId: row.partner_id,
      environment: row.environment,
      correlationId: row.correlation_id,
      data: row.data,
    }));
  }
}
