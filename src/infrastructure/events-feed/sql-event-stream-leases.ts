import {
  EventStreamLease,
  EventStreamLeases,
  EventStreamLimits,
  LeaseRefusal,
} from '../../application/ports/event-stream-leases.port';
import { SchemaScript } from '../sql/migrations';
import { SqlDatabase } from '../sql/sql-database';

export const EVENT_STREAM_LEASES_SCHEMA: SchemaScript = {
  name: 'event-stream-leases',
  sql: `
CREATE TABLE IF NOT EXISTS event_stream_leases (
  stream_id text PRIMARY KEY,
  partner_id text NOT NULL,
  environment text NOT NULL,
  key_id text NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX IF NOT EXISTS event_stream_leases_partner ON event_stream_leases (partner_id, environment);
`,
};

/** Leases timed by the database's clock; an advisory lock per partner and environment keeps two processes from both taking the last place. */
export class SqlEventStreamLeases implements EventStreamLeases {
  constructor(private readonly db: SqlDatabase) {}

  acquire(lease: EventStreamLease, limits: EventStreamLimits, ttlMs: number): Promise<LeaseRefusal> {
    return this.db.transaction(async (tx) => {
      await tx.query(`SELECT pg_advisory_xact_lock(hashtext('event-streams ' || $1 || ' ' || $2))`, [
        lease.partnerId,
        lease.environment,
      ]);
      const [open] = await tx.query<{ of_key: number; of_partner: number }>(
        `SELECT count(*) FILTER (WHERE key_id = $3)::int AS of_key, count(*)::int AS of_partner
           FROM event_stream_leases WHERE partner_id = $1 AND environment = $2 AND expires_at > now()`,
        [lease.partnerId, lease.environment, lease.keyId],
      );
      if (open.of_key >= limits.perKey) return 'key';
      if (open.of_partner >= limits.perPartner) return 'partner';
      await tx.query(
        `DELETE FROM event_stream_leases WHERE partner_id = $1 AND environment = $2 AND expires_at <= now()`,
        [lease.partnerId, lease.environment],
      );
      await tx.query(
        `INSERT INTO event_stream_leases (stream_id, partner_id, environment, key_id, expires_at)
         VALUES ($1, $2, $3, $4, now() + make_interval(secs => $5::double precision / 1000))`,
        [lease.streamId, lease.partnerId, lease.environment, lease.keyId, ttlMs],
      );
      return null;
    });
  }

  async renew(streamIds: readonly string[], ttlMs: number): Promise<void> {
    if (streamIds.length === 0) return;
    await this.db.query(
      `UPDATE event_stream_leases SET expires_at = now() + make_interval(secs => $2::double precision / 1000)
        WHERE stream_id = ANY($1::text[])`,
      [[...streamIds], ttlMs],
    );
  }

  async release(streamId: string): Promise<void> {
    await this.db.query('DELETE FROM event_stream_leases WHERE stream_id = $1', [streamId]);
  }
}
