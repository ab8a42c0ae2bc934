import { RecordedEvent } from '../../application/ports/event-store.port';
import { PartnerEventBodies } from '../../application/ports/partner-event-bodies.port';
import { PARTNER_EVENT_SOURCES, PartnerEventFacts, partnerEventOf } from '../../application/webhooks/partner-events';
import { BatchScope, ReadModelTables, SqlProjection } from '../projections/sql-projection';
import { SqlExecutor } from '../sql/sql-database';
import { ORDER_VIEWS_OF_BATCH } from './order-views-of-batch';

/**
 * The events feed: each partner-visible event (webhook id and body), keyed by its cause's log position, the feed's
 * cursor (the same after a rebuild). Amount, currency and reference come from the order's row, projected first in the
 * group (and kept in the batch's scope) or read from rm_orders.
 */
export const PARTNER_EVENTS_TABLES: ReadModelTables = {
  name: 'partner-events',
  // 2: an entry is unique by its order and event id (the id is derived from the order), so entries of one order sit
  // together in the index instead of at random pages, each logged whole after a checkpoint (decision 0153).
  schemaVersion: 2,
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
  body text NOT NULL,
  occurred_at timestamptz NOT NULL,
  PRIMARY KEY (partner_id, environment, commit_position, prepare_position),
  UNIQUE (order_id, event_id)
);
`,
  },
};

/** The bodies are written by the port the webhooks write theirs with: one writer, the same bytes. */
export const partnerEventsProjection = (bodies: PartnerEventBodies): SqlProjection => ({
  ...PARTNER_EVENTS_TABLES,
  handles: PARTNER_EVENT_SOURCES,
  deferrableWrites: true,
  apply: (event, tx, batch) => insertEntries([event], tx, batch, bodies),
  applyBatch: (events, tx, batch) => insertEntries(events, tx, batch, bodies),
});

async function insertEntries(
  events: readonly RecordedEvent[],
  tx: SqlExecutor,
  batch: BatchScope,
  bodies: PartnerEventBodies,
): Promise<void> {
  const announced: { event: RecordedEvent; facts: PartnerEventFacts }[] = [];
  for (const event of events) {
    const facts = partnerEventOf(event);
    if (facts) announced.push({ event, facts });
  }
  if (announced.length === 0) return;
  const byId = await batch.of(ORDER_VIEWS_OF_BATCH, tx).of(announced.map((entry) => entry.facts.orderId));
  const rows: Record<string, string>[] = [];
  for (const { event, facts } of announced) {
    const order = byId.get(facts.orderId);
    // An announcement always follows its order's debit in the log; without one there is nothing to show.
    if (!order) continue;
    rows.push({
      partner_id: facts.partnerId,
      environment: facts.environment,
      commit_position: event.position.commit.toString(),
      prepare_position: event.position.prepare.toString(),
      event_id: facts.eventId,
      event: facts.event,
      order_id: facts.orderId,
      body: bodies.bodyOf({
        eventId: facts.eventId,
        event: facts.event,
        orderId: facts.orderId,
        facts: facts.facts,
        order: { amount: order.amount, currency: order.currency, reference: order.reference },
      }),
      occurred_at: event.metadata.occurredAt,
    });
  }
  if (rows.length === 0) return;
  // One JSON document rather than an array literal per column (which the driver builds element by element).
  await tx.query(
    `INSERT INTO rm_partner_events
       (partner_id, environment, commit_position, prepare_position, event_id, event, order_id, body, occurred_at)
     SELECT partner_id, environment, commit_position, prepare_position, event_id, event, order_id, body, occurred_at
       FROM jsonb_to_recordset($1::jsonb)
         AS r(partner_id text, environment text, commit_position bigint, prepare_position bigint, event_id text,
              event text, order_id text, body text, occurred_at timestamptz)
     ON CONFLICT DO NOTHING`,
    [JSON.stringify(rows)],
  );
}
