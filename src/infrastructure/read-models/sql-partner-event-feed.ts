import {
  FeedEntry,
  FeedOwner,
  FeedPosition,
  PartnerEventFeed,
  feedOwnerKey,
} from '../../application/ports/partner-event-feed.port';
import { PartnerEventAnnouncement, PartnerEventBodies } from '../../application/ports/partner-event-bodies.port';
import { Currency } from '../../domain/money/currency';
import { Environment } from '../../domain/shared/environment';
import { SqlExecutor } from '../sql/sql-database';

interface EntryRow {
  commit_position: string;
  prepare_position: string;
  event_id: string;
  event: PartnerEventAnnouncement['event'];
  order_id: string;
  facts: PartnerEventAnnouncement['facts'] | null;
  /** Only in the layout before version 3 (read while its rebuild runs): the body as written then. */
  body: string | null;
  amount: string;
  currency: Currency;
  reference: string | null;
}

/**
 * An entry's columns and its order's amount, currency and reference, which its body shows. The facts and the body
 * are read through the row's JSON so that one statement reads either layout: a feed of schema version 2 (bodies
 * stored) is served as it is while its rebuild to version 3 runs.
 */
const ENTRY_COLUMNS = `e.commit_position::text AS commit_position, e.prepare_position::text AS prepare_position,
  e.event_id, e.event, e.order_id, to_jsonb(e) -> 'facts' AS facts, to_jsonb(e) ->> 'body' AS body,
  o.amount::text AS amount, o.currency, o.reference`;

/** Entries are stored without their bodies (decision 0163): each is written when read, as its webhook was. */
export class SqlPartnerEventFeed implements PartnerEventFeed {
  constructor(
    private readonly db: SqlExecutor,
    private readonly bodies: PartnerEventBodies,
  ) {}

  async entries(
    owner: FeedOwner,
    after: FeedPosition | null,
    limit: number,
    upTo?: FeedPosition,
  ): Promise<FeedEntry[]> {
    const rows = await this.db.query<EntryRow>(
      `SELECT ${ENTRY_COLUMNS}
         FROM rm_partner_events e JOIN rm_orders o ON o.order_id = e.order_id
        WHERE e.partner_id = $1 AND e.environment = $2 AND (e.commit_position, e.prepare_position) > ($3::bigint, $4::bigint)
          AND ($6::bigint IS NULL OR (e.commit_position, e.prepare_position) <= ($6::bigint, $7::bigint))
        ORDER BY e.commit_position, e.prepare_position
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
    return rows.map((row) => this.entryOf(row));
  }

  /** Read backwards along the primary key (partner, environment, position): `limit` rows at most. */
  async latest(owner: { partnerId: string; environment: Environment }, limit: number): Promise<FeedEntry[]> {
    const rows = await this.db.query<EntryRow>(
      `SELECT ${ENTRY_COLUMNS}
         FROM rm_partner_events e JOIN rm_orders o ON o.order_id = e.order_id
        WHERE e.partner_id = $1 AND e.environment = $2
        ORDER BY e.commit_position DESC, e.prepare_position DESC
        LIMIT $3`,
      [owner.partnerId, owner.environment, limit],
    );
    return rows.reverse().map((row) => this.entryOf(row));
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

  private entryOf(row: EntryRow): FeedEntry {
    return {
      position: { commit: BigInt(row.commit_position), prepare: BigInt(row.prepare_position) },
      eventId: row.event_id,
      event: row.event,
      body:
        row.body ??
        this.bodies.bodyOf({
          eventId: row.event_id,
          event: row.event,
          orderId: row.order_id,
          facts: row.facts ?? {},
          order: { amount: row.amount, currency: row.currency, reference: row.reference },
        }),
    };
  }
}
