import { IdempotencyScope, IdempotencyStore, Reservation, StoredResponse } from '../../application/ports/idempotency-store.port';
import { SqlExecutor } from '../sql/sql-database';

interface KeyRow {
  request_hash: string;
  order_id: string;
  state: 'in_flight' | 'completed';
  response_status: number | null;
  response_body: string | null;
  locked_until: Date | string;
}

export interface IdempotencyTimings {
  /** How long a key stays bound to its first request (24 h per the interface). */
  windowMs: number;
  /** How long an unfinished request holds its key before a retry may take the work over. */
  leaseMs: number;
}

/**
 * One row per (partner, environment, key). The primary key makes the reservation
 * atomic across processes: exactly one request inserts it; the others read what it did.
 */
export class SqlIdempotencyStore implements IdempotencyStore {
  constructor(
    private readonly db: SqlExecutor,
    private readonly timings: IdempotencyTimings,
  ) {}

  async reserve(scope: IdempotencyScope, requestHash: string, candidateOrderId: string, now: Date): Promise<Reservation> {
    const lockedUntil = new Date(now.getTime() + this.timings.leaseMs).toISOString();
    const inserted = await this.db.query<{ order_id: string }>(
      `INSERT INTO idempotency_keys (partner_id, environment, idempotency_key, request_hash, order_id, state, locked_until, created_at, expires_at)
       VALUES ($1, $2, $3, $4, $5, 'in_flight', $6, $7, $8)
       ON CONFLICT (partner_id, environment, idempotency_key) DO UPDATE
         SET request_hash = EXCLUDED.request_hash, order_id = EXCLUDED.order_id, state = 'in_flight',
             response_status = NULL, response_body = NULL, locked_until = EXCLUDED.locked_until,
             created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at
         WHERE idempotency_keys.expires_at <= EXCLUDED.created_at
       RETURNING order_id`,
      [scope.partnerId, scope.environment, scope.key, requestHash, candidateOrderId, lockedUntil, now.toISOString(),
        new Date(now.getTime() + this.timings.windowMs).toISOString()],
    );
    if (inserted.length) return { outcome: 'reserved', orderId: inserted[0].order_id };

    const rows = await this.db.query<KeyRow>(
      `SELECT request_hash, order_id, state, response_status, response_body, locked_until FROM idempotency_keys
        WHERE partner_id = $1 AND environment = $2 AND idempotency_key = $3`,
      [scope.partnerId, scope.environment, scope.key],
    );
    const row = rows[0];
    // Released between our insert and read: let the caller try again as a fresh request.
    if (!row) return this.reserve(scope, requestHash, candidateOrderId, now);
    if (row.request_hash !== requestHash) return { outcome: 'conflict' };
    if (row.state === 'completed' && row.response_status !== null && row.response_body !== null) {
      return { outcome: 'replay', response: { statusCode: row.response_status, body: row.response_body } };
    }
    if (new Date(row.locked_until) > now) return { outcome: 'in_flight' };
    const taken = await this.db.query<{ order_id: string }>(
      `UPDATE idempotency_keys SET locked_until = $5
        WHERE partner_id = $1 AND environment = $2 AND idempotency_key = $3 AND state = 'in_flight' AND locked_until = $4
        RETURNING order_id`,
      [scope.partnerId, scope.environment, scope.key, new Date(row.locked_until).toISOString(), lockedUntil],
    );
    return taken.length ? { outcome: 'resumed', orderId: taken[0].order_id } : { outcome: 'in_flight' };
  }

  async find(scope: IdempotencyScope, now: Date): Promise<{ requestHash: string; response: StoredResponse | null } | null> {
    const rows = await this.db.query<KeyRow & { expires_at: Date | string }>(
      `SELECT request_hash, order_id, state, response_status, response_body, locked_until, expires_at FROM idempotency_keys
        WHERE partner_id = $1 AND environment = $2 AND idempotency_key = $3`,
      [scope.partnerId, scope.environment, scope.key],
    );
    const row = rows[0];
    if (!row || new Date(row.expires_at) <= now) return null;
    const answered = row.state === 'completed' && row.response_status !== null && row.response_body !== null;
    return {
      requestHash: row.request_hash,
      response: answered ? { statusCode: row.response_status as number, body: row.response_body as string } : null,
    };
  }

  async complete(scope: IdempotencyScope, orderId: string, response: StoredResponse): Promise<void> {
    const updated = await this.db.query(
      `UPDATE idempotency_keys SET state = 'completed', response_status = $5, response_body = $6
        WHERE partner_id = $1 AND environment = $2 AND idempotency_key = $3 AND order_id = $4
        RETURNING order_id`,
      [scope.partnerId, scope.environment, scope.key, orderId, response.statusCode, response.body],
    );
    // The key is bound to one order for its whole window; losing it while answering is a bug, not a retry.
    if (updated.length === 0) throw new Error(`idempotency key ${scope.key} is no longer bound to order ${orderId}`);
  }

  async release(scope: IdempotencyScope, orderId: string): Promise<void> {
    await this.db.query(
      `DELETE FROM idempotency_keys
        WHERE partner_id = $1 AND environment = $2 AND idempotency_key = $3 AND order_id = $4 AND state = 'in_flight'`,
      [scope.partnerId, scope.environment, scope.key, orderId],
    );
  }

  async lookup(scope: IdempotencyScope): Promise<{ orderId: string; statusCode: number | null } | null> {
    const rows = await this.db.query<{ order_id: string; response_status: number | null }>(
      'SELECT order_id, response_status FROM idempotency_keys WHERE partner_id = $1 AND environment = $2 AND idempotency_key = $3',
      [scope.partnerId, scope.environment, scope.key],
    );
    return rows[0] ? { orderId: rows[0].order_id, statusCode: rows[0].response_status } : null;
  }

  async purgeExpired(now: Date): Promise<number> {
    const rows = await this.db.query('DELETE FROM idempotency_keys WHERE expires_at <= $1 RETURNING idempotency_key', [now.toISOString()]);
    return rows.length;
  }
}
