import { EventLogDiagnostics } from '../../application/ports/event-log-diagnostics.port';
import { GlobalPosition } from '../../application/ports/event-store.port';
import { SqlDatabase } from '../sql/sql-database';
import { positionOf } from './sql-event-row';
import { READABLE_HORIZON } from './readable-horizon';

export class SqlEventLogDiagnostics implements EventLogDiagnostics {
  constructor(private readonly db: SqlDatabase) {}

  headPosition(): Promise<GlobalPosition | null> {
    return this.lastPosition(`WHERE transaction_id < ${READABLE_HORIZON}`);
  }

  /** Without the horizon: a row this statement sees belongs to a committed transaction. */
  committedHeadPosition(): Promise<GlobalPosition | null> {
    return this.lastPosition('');
  }

  private async lastPosition(where: string): Promise<GlobalPosition | null> {
    const rows = await this.db.query<{ transaction_id: string; global_position: string }>(
      `SELECT transaction_id::text AS transaction_id, global_position::text AS global_position FROM es_events
        ${where}
        ORDER BY es_events.transaction_id DESC, es_events.global_position DESC LIMIT 1`,
    );
    return rows.length ? positionOf(rows[0]) : null;
  }

  async countEvents(after: GlobalPosition | null, upTo?: GlobalPosition | null): Promise<number> {
    const from = after ?? { commit: 0n, prepare: 0n };
    const params: unknown[] = [from.commit.toString(), from.prepare.toString()];
    let bound = '';
    if (upTo) {
      params.push(upTo.commit.toString(), upTo.prepare.toString());
      bound = 'AND (transaction_id, global_position) <= ($3::text::xid8, $4::bigint)';
    }
    const rows = await this.db.query<{ count: string }>(
      `SELECT count(*)::text AS count FROM es_events
        WHERE (transaction_id, global_position) > ($1::text::xid8, $2::bigint)
          AND transaction_id < ${READABLE_HORIZON}
          ${bound}`,
      params,
    );
    return Number(rows[0].count);
  }

  async countCommittedNotYetReadable(): Promise<number> {
    const rows = await this.db.query<{ pending: string }>(
      `SELECT count(*)::text AS pending FROM es_events WHERE transaction_id >= ${READABLE_HORIZON}`,
    );
    return Number(rows[0].pending);
  }
}
