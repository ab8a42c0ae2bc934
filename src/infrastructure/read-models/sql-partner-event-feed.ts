import {
  FeedEntry,
  FeedOwner,
  FeedPosition,
  PartnerEventFeed,
  feedOwnerKey,
} from '../../application/ports/partner-event-feed.port';
import { Environment } from '../../domain/shared/environment';
import { SqlExecutor } from '../sql/sql-database';

interface EntryRow {
  commit_position: string;
  prepare_position: string;
  event_id: string;
  event: string;
  body: string;
}

export class SqlPartnerEventFeed implements PartnerEventFeed {
  constructor(private readonly db: SqlExecutor) {}

  async entries(
    owner: FeedOwner,
    after: FeedPosition | null,
    limit: number,
    upTo?: FeedPosition,
  ): Promise<FeedEntry[]> {
    const rows = await this.db.query<EntryRow>(
      `SELECT commit_position::text AS commit_position, prepare_position::text AS prepare_position,
              event_id, event, body
         FROM rm_partner_events
        WHERE partner_id = $1 AND environment = $2 AND (commit_position, prepare_position) > ($3::bigint, $4::bigint)
          AND ($6::bigint IS NULL OR (commit_position, prepare_position) <= ($6::bigint, $7::bigint))
        ORDER BY commit_position, prepare_position
        LIMIT $5`,
      [
        owner.partnerId,
        owner.environment,
        String(after?.commit ?? -1n),
        String(after?.prepare ?? -1n),
        limit,
        upTo ? String(upTo.commit) : null,
        upTo ? String(upTo.prepare) : null,
      ],
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

  async heads(owners: readonly FeedOwner[]): Promise<Map<string, FeedPosition>> {
    if (owners.length === 0) return new Map();
    const rows = await this.db.query<{
      partner_id: string;
      environment: Environment;
      commit_position: string;
      prepare_position: string;
    }>(
      `SELECT o.partner_id, o.environment, h.commit_position::text AS commit_position, h.prepare_position::text AS prepare_position
         FROM unnest($1::text[], $2::text[]) AS o(partner_id, environment)
         JOIN LATERAL (
           SELECT commit_position, prepare_position FROM rm_partner_events e
            WHERE e.partner_id = o.partner_id AND e.environment = o.environment
            ORDER BY commit_position DESC, prepare_position DESC LIMIT 1) h ON true`,
      [owners.map((owner) => owner.partnerId), owners.map((owner) => owner.environment)],
    );
    return new Map(
      rows.map((row) => [
        feedOwnerKey({ partnerId: row.partner_id, environment: row.environment }),
        { commit: BigInt(row.commit_position), prepare: BigInt(row.prepare_position) },
      ]),
    );
  }
}

const entryOf = (row: EntryRow): FeedEntry => ({
  position: { commit: BigInt(row.commit_position), prepare: BigInt(row.prepare_position) },
  eventId: row.event_id,
  event: row.event,
  body: row.body,
});
