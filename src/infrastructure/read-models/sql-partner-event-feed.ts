import { FeedEntry, FeedPosition, PartnerEventFeed } from '../../application/ports/partner-event-feed.port';
import { Environment } from '../../domain/shared/environment';
import { SqlExecutor } from '../sql/sql-database';

interface EntryRow {
  commit_position: string;
  prepare_position: string;
  event_id: string;
  event: string;
  body: string;
}

/** Reads rm_partner_events (see partner-events.projection.ts) in log order. */
export class SqlPartnerEventFeed implements PartnerEventFeed {
  constructor(private readonly db: SqlExecutor) {}

  async entries(
    owner: { partnerId: string; environment: Environment },
    after: FeedPosition | null,
    limit: number,
  ): Promise<FeedEntry[]> {
    const rows = await this.db.query<EntryRow>(
      `SELECT commit_position::text AS commit_position, prepare_position::text AS prepare_position,
              event_id, event, body
         FROM rm_partner_events
        WHERE partner_id = $1 AND environment = $2 AND (commit_position, prepare_position) > ($3::bigint, $4::bigint)
        ORDER BY commit_position, prepare_position
        LIMIT $5`,
      [owner.partnerId, owner.environment, String(after?.commit ?? -1n), String(after?.prepare ?? -1n), limit],
    );
    return rows.map(entryOf);
  }

  /** Read backwards along the primary key (partner, environment, position): `limit` rows at most. */
  async latest(owner: { partnerId: string; environment: Environment }, limit: number): Promise<FeedEntry[]> {
    const rows = await this.db.query<EntryRow>(
      `SELECT commit_position::text AS commit_position, prepare_position::text AS prepare_position,
              event_id, event, body
         FROM rm_partner_events
        WHERE partner_id = $1 AND environment = $2
        ORDER BY commit_position DESC, prepare_position DESC
        LIMIT $3`,
      [owner.partnerId, owner.environment, limit],
    );
    return rows.reverse().map(entryOf);
  }
}

const entryOf = (row: EntryRow): FeedEntry => ({
  position: { commit: BigInt(row.commit_position), prepare: BigInt(row.prepare_position) },
  eventId: row.event_id,
  event: row.event,
  body: row.body,
});
