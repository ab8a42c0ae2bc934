import { RecordedEvent } from '../../application/ports/event-store.port';
import { PARTNER_EVENT_SOURCES, partnerEventOf } from '../../application/webhooks/partner-events';
import { SqlProjection } from '../projections/sql-projection';
import { SqlExecutor } from '../sql/sql-database';

/**
 * The events feed: each partner-visible event (webhook id and the triggering event's facts), keyed by its cause's
 * log position, the feed's cursor (the same after a rebuild). The body is not stored: the feed writes it when read,
 * from these facts and the order's row (amount, currency, reference), with the port the webhooks write theirs with.
 */
export const partnerEventsProjection: SqlProjection = {
  name: 'partner-events',
  // 2: an entry is unique by its order and event id (the id is derived from the order), so entries of one order sit
  // together in the index instead of at random pages, each logged whole after a checkpoint (decision 0153).
  // 3: the event's facts instead of the rendered body, written when the feed is read (decision 0163).
  // 4: no index of (order, event id): one log event announces each partner event, and the primary key, its
  // position, already refuses it twice (decision 0167).
  schemaVersion: 4,
  schema: {
    name: 'partner-events',
    sql: `
CREATE TABLE IF NOT EXISTS rm_partner_events (
  partner_id text NOT NULL,
  environment text NOT NULL,
  commit_position bigint NOT NULL,
  prepare_position bigint NOT NULL,
  event_id text NOT NULL,
  event text NOT NULL,
  order_id text NOT NULL,
  facts jsonb NOT NULL,
  occurred_at timestamptz NOT NULL,
  PRIMARY KEY (partner_id, environment, commit_position, prepare_position)
);
`,
  },
  handles: PARTNER_EVENT_SOURCES,
  deferrableWrites: true,
  apply: (event, tx) => insertEntries([event], tx),
  applyBatch: (events, tx) => insertEntries(events, tx),
};

async function insertEntries(events: readonly RecordedEvent[], tx: SqlExecutor): Promise<void> {
  const rows: object[] = [];
  for (const event of events) {
    const announced = partnerEventOf(event);
    if (!announced) continue;
    rows.push({
      partner_id: announced.partnerId,
      environment: announced.environment,
      commit_position: event.position.commit.toString(),
      prepare_position: event.position.prepare.toString(),
      event_id: announced.eventId,
      event: announced.event,
      order_id: announced.orderId,
      facts: announced.facts,
      occurred_at: event.metadata.occurredAt,
    });
  }
  if (rows.length === 0) return;
  // One JSON document rather than an array literal per column (which the driver builds element by element).
  await tx.query(
    `INSERT INTO rm_partner_events
       (partner_id, environment, commit_position, prepare_position, event_id, event, order_id, facts, occurred_at)
     SELECT partner_id, environment, commit_position, prepare_position, event_id, event, order_id, facts, occurred_at
       FROM jsonb_to_recordset($1::jsonb)
         AS r(partner_id text, environment text, commit_position bigint, prepare_position bigint, event_id text,
              event text, order_id text, facts jsonb, occurred_at timestamptz)
     ON CONFLICT DO NOTHING`,
    [JSON.stringify(rows)],
  );
}
