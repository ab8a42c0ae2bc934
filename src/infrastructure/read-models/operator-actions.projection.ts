import { RecordedEvent } from '../../application/ports/event-store.port';
import { LOG_EVENTS } from '../../domain/log-events';
import { typesOf } from '../../domain/shared/event-types';
import { SqlProjection } from '../projections/sql-projection';
import { SqlExecutor } from '../sql/sql-database';

/** Fields that hold a keyed hash or a sealed secret: never shown in the audit of an operator. */
const SECRET_FIELD = /hash|secret|sealed|token/i;

function withoutSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSecrets);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [key, SECRET_FIELD.test(key) ? '[redacted]' : withoutSecrets(inner)]),
  );
}

const isOperatorAction = (event: RecordedEvent): boolean => event.metadata.actor.type === 'operator';

const rowOf = (event: RecordedEvent) => ({
  event_id: event.eventId,
  actor_id: event.metadata.actor.id,
  position_commit: event.position.commit.toString(),
  position_prepare: event.position.prepare.toString(),
  stream_id: event.streamId,
  revision: event.revision,
  event_type: event.type,
  occurred_at: event.metadata.occurredAt,
  partner_id: event.metadata.partnerId,
  environment: event.metadata.environment,
  correlation_id: event.metadata.correlationId,
  data: withoutSecrets(event.data),
});

/**
 * The back-office actions of each operator, by the actor recorded on each event (`audit operator`).
 * Rows are keyed by event id, so an event applied twice leaves one row.
 */
export const operatorActionsProjection: SqlProjection = {
  name: 'operator-actions',
  schemaVersion: 1,
  schema: {
    name: 'operator-actions',
    sql: `
CREATE TABLE IF NOT EXISTS rm_operator_actions (
  event_id text PRIMARY KEY,
  actor_id text NOT NULL,
  position_commit bigint NOT NULL,
  position_prepare bigint NOT NULL,
  stream_id text NOT NULL,
  revision integer NOT NULL,
  event_type text NOT NULL,
  occurred_at timestamptz NOT NULL,
  partner_id text,
  environment text,
  correlation_id text NOT NULL,
  data jsonb NOT NULL
);
CREATE INDEX IF NOT EXISTS rm_operator_actions_actor ON rm_operator_actions (actor_id, position_commit DESC, position_prepare DESC);
`,
  },
  // Every event type of the log (LOG_EVENTS names them all), so an action of a new kind cannot be left out of the
  // operators' audit. Only the events whose actor is an operator are kept; the others cost a look at their metadata.
  handles: typesOf(LOG_EVENTS),
  deferrableWrites: true,

  apply: (event: RecordedEvent, tx: SqlExecutor) => insertActions([event], tx),
  applyBatch: insertActions,
};

async function insertActions(events: readonly RecordedEvent[], tx: SqlExecutor): Promise<void> {
  const rows = events.filter(isOperatorAction).map(rowOf);
  if (rows.length === 0) return;
  await tx.query(
    `INSERT INTO rm_operator_actions (event_id, actor_id, position_commit, position_prepare, stream_id, revision,
         event_type, occurred_at, partner_id, environment, correlation_id, data)
       SELECT event_id, actor_id, position_commit, position_prepare, stream_id, revision,
         event_type, occurred_at, partner_id, environment, correlation_id, data
       FROM jsonb_to_recordset($1::jsonb) AS r(event_id text, actor_id text, position_commit bigint, position_prepare bigint,
         stream_id text, revision integer, event_type text, occurred_at timestamptz, partner_id text, environment text,
         correlation_id text, data jsonb)
       ON CONFLICT (event_id) DO NOTHING`,
    [JSON.stringify(rows)],
  );
}
