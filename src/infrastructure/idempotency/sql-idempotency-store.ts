import {
  IdempotencyScope,
  IdempotencyStore,
  KeyAnswer,
  Reservation,
  StoredResponse,
} from '../../application/ports/idempotency-store.port';
import { SqlExecutor } from '../sql/sql-database';
import { StatementBatcher } from '../sql/statement-batcher';

interface ScopedRow {
  partner_id: string;
  environment: string;
  idempotency_key: string;
}

interface NewReservation {
  scope: IdempotencyScope;
  requestHash: string;
  orderId: string;
  lockedUntil: string;
  createdAt: string;
  expiresAt: string;
}

interface Answer {
  scope: IdempotencyScope;
  orderId: string;
  response: StoredResponse;
}

const scopeId = (scope: IdempotencyScope): string => JSON.stringify([scope.partnerId, scope.environment, scope.key]);
const rowScopeId = (row: ScopedRow): string => JSON.stringify([row.partner_id, row.environment, row.idempotency_key]);

interface KeyRow {
  request_hash: string;
  order_id: string;
  state: 'in_flight' | 'completed';
  response_status: number | null;
  response_body: string | null;
  locked_until: Date | string;
}

interface IdempotencyTimings {
  windowMs: number;
  leaseMs: number;
}

/** Reservations commit synchronously unless the events share the write-ahead log; a lost answer is resumed from the log. */
interface IdempotencyDatabases {
  reservations: SqlExecutor;
  answers: SqlExecutor;
}

/** One row per (partner, environment, key): the primary key makes the reservation atomic; concurrent requests share statements. */
export class SqlIdempotencyStore implements IdempotencyStore {
  private readonly db: SqlExecutor;
  private readonly answers: SqlExecutor;
  private readonly inserts = new StatementBatcher<NewReservation, string | null>((items) =>
    this.insertReservations(items),
  );
  private readonly lookups = new StatementBatcher<IdempotencyScope, (KeyRow & { expires_at: Date | string }) | null>(
    (scopes) => this.readKeys(scopes),
  );
  private readonly completions = new StatementBatcher<Answer, boolean>((answers) => this.writeAnswers(answers));

  constructor(
    databases: SqlExecutor | IdempotencyDatabases,
    private readonly timings: IdempotencyTimings,
  ) {
    this.db = 'reservations' in databases ? databases.reservations : databases;
    this.answers = 'answers' in databases ? databases.answers : databases;
  }

  async reserve(
    scope: IdempotencyScope,
    requestHash: string,
    candidateOrderId: string,
    now: Date,
  ): Promise<Reservation> {
    const lockedUntil = new Date(now.getTime() + this.timings.leaseMs).toISOString();
    const inserted = await this.inserts.submit({
      scope,
      requestHash,
      orderId: candidateOrderId,
      lockedUntil,
      createdAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + this.timings.windowMs).toISOString(),
    });
    if (inserted !== null) return { outcome: 'reserved', orderId: inserted, lease: lockedUntil };

    const row = await this.lookups.submit(scope);
    // Released between our insert and read: let the caller try again as a fresh request.
    if (!row) return this.reserve(scope, requestHash, candidateOrderId, now);
    if (row.request_hash !== requestHash) return { outcome: 'conflict' };
    const answer = answerOf(row);
    if (answer) return { outcome: 'replay', answer };
    if (new Date(row.locked_until) > now) return { outcome: 'in_flight' };
    const taken = await this.db.query<{ order_id: string }>(
      `UPDATE idempotency_keys SET locked_until = $5
        WHERE partner_id = $1 AND environment = $2 AND idempotency_key = $3 AND state = 'in_flight' AND locked_until = $4
        RETURNING order_id`,
      [scope.partnerId, scope.environment, scope.key, new Date(row.locked_until).toISOString(), lockedUntil],
    );
    return taken.length
      ? { outcome: 'resumed', orderId: taken[0].order_id, lease: lockedUntil }
      : { outcome: 'in_flight' };
  }

  async find(scope: IdempotencyScope, now: Date): Promise<{ requestHash: string; answer: KeyAnswer | null } | null> {
    const row = await this.lookups.submit(scope);
    if (!row || new Date(row.expires_at) <= now) return null;
    return { requestHash: row.request_hash, answer: answerOf(row) };
  }

  async complete(scope: IdempotencyScope, orderId: string, response: StoredResponse): Promise<void> {
    // The key is bound to one order for its whole window; losing it while answering is a bug, not a retry.
    if (!(await this.completions.submit({ scope, orderId, response }))) {
      throw new Error(`idempotency key ${scope.key} is no longer bound to order ${orderId}`);
    }
  }

  async release(scope: IdempotencyScope, orderId: string, lease: string): Promise<void> {
    await this.answers.query(
      `DELETE FROM idempotency_keys
        WHERE partner_id = $1 AND environment = $2 AND idempotency_key = $3 AND order_id = $4 AND state = 'in_flight'
          AND locked_until = $5`,
      [scope.partnerId, scope.environment, scope.key, orderId, lease],
    );
  }

  async lookup(scope: IdempotencyScope): Promise<{ orderId: string; statusCode: number | null } | null> {
    const row = await this.lookups.submit(scope);
    return row ? { orderId: row.order_id, statusCode: row.response_status } : null;
  }

  async purgeExpired(now: Date): Promise<number> {
    const rows = await this.db.query('DELETE FROM idempotency_keys WHERE expires_at <= $1 RETURNING idempotency_key', [
      now.toISOString(),
    ]);
    return rows.length;
  }

  /** Inserts the reservations in one statement: the order id bound to each key, or null when it was bound already. */
  private async insertReservations(items: readonly NewReservation[]): Promise<(string | null)[]> {
    const firsts = new Map<string, NewReservation>();
    for (const item of items) if (!firsts.has(scopeId(item.scope))) firsts.set(scopeId(item.scope), item);
    // Sorted, so two processes inserting overlapping keys lock them in the same order (no deadlock).
    const unique = [...firsts.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, item]) => item);
    const rows = await this.db.query<ScopedRow & { order_id: string }>(
      `INSERT INTO idempotency_keys (partner_id, environment, idempotency_key, request_hash, order_id, state, locked_until, created_at, expires_at)
       SELECT v.partner_id, v.environment, v.idempotency_key, v.request_hash, v.order_id, 'in_flight', v.locked_until, v.created_at, v.expires_at
         FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::timestamptz[], $7::timestamptz[], $8::timestamptz[])
           AS v(partner_id, environment, idempotency_key, request_hash, order_id, locked_until, created_at, expires_at)
       ON CONFLICT (partner_id, environment, idempotency_key) DO UPDATE
         SET request_hash = EXCLUDED.request_hash, order_id = EXCLUDED.order_id, state = 'in_flight',
             response_status = NULL, response_body = NULL, locked_until = EXCLUDED.locked_until,
             created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at
         WHERE idempotency_keys.expires_at <= EXCLUDED.created_at
       RETURNING partner_id, environment, idempotency_key, order_id`,
      [
        unique.map((item) => item.scope.partnerId),
        unique.map((item) => item.scope.environment),
        unique.map((item) => item.scope.key),
        unique.map((item) => item.requestHash),
        unique.map((item) => item.orderId),
        unique.map((item) => item.lockedUntil),
        unique.map((item) => item.createdAt),
        unique.map((item) => item.expiresAt),
      ],
    );
    const bound = new Map(rows.map((row) => [rowScopeId(row), row.order_id]));
    return items.map((item) => {
      const orderId = bound.get(scopeId(item.scope));
      return orderId === item.orderId ? orderId : null;
    });
  }

  private async readKeys(
    scopes: readonly IdempotencyScope[],
  ): Promise<((KeyRow & { expires_at: Date | string }) | null)[]> {
    const rows = await this.db.query<ScopedRow & KeyRow & { expires_at: Date | string }>(
      `SELECT k.partner_id, k.environment, k.idempotency_key, k.request_hash, k.order_id, k.state, k.response_status, k.response_body,
              k.locked_until, k.expires_at
         FROM idempotency_keys k
         JOIN unnest($1::text[], $2::text[], $3::text[]) AS v(partner_id, environment, idempotency_key)
           ON k.partner_id = v.partner_id AND k.environment = v.environment AND k.idempotency_key = v.idempotency_key`,
      [
        scopes.map((scope) => scope.partnerId),
        scopes.map((scope) => scope.environment),
        scopes.map((scope) => scope.key),
      ],
    );
    const byScope = new Map(rows.map((row) => [rowScopeId(row), row]));
    return scopes.map((scope) => byScope.get(scopeId(scope)) ?? null);
  }

  private async writeAnswers(answers: readonly Answer[]): Promise<boolean[]> {
    const rows = await this.answers.query<ScopedRow & { order_id: string }>(
      `UPDATE idempotency_keys AS k SET state = 'completed', response_status = v.status, response_body = v.body
         FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::integer[], $6::text[])
           AS v(partner_id, environment, idempotency_key, order_id, status, body)
        WHERE k.partner_id = v.partner_id AND k.environment = v.environment AND k.idempotency_key = v.idempotency_key
          AND k.order_id = v.order_id
        RETURNING k.partner_id, k.environment, k.idempotency_key, k.order_id`,
      [
        answers.map((answer) => answer.scope.partnerId),
        answers.map((answer) => answer.scope.environment),
        answers.map((answer) => answer.scope.key),
        answers.map((answer) => answer.orderId),
        answers.map((answer) => answer.response.statusCode),
        answers.map((answer) => answer.response.body),
      ],
    );
    const stored = new Set(rows.map((row) => `${rowScopeId(row)} ${row.order_id}`));
    return answers.map((answer) => stored.has(`${scopeId(answer.scope)} ${answer.orderId}`));
  }
}

/**
 * A completed key's answer: its stored body, or, when it was bound in its debit's commit and has none (decision
 * 0162), its order's debit to make the answer from. Keys answered otherwise than 200 always keep their body.
 */
function answerOf(row: KeyRow): KeyAnswer | null {
  if (row.state !== 'completed' || row.response_status === null) return null;
  if (row.response_body !== null)
    return { kind: 'stored', response: { statusCode: row.response_status, body: row.response_body } };
  return row.response_status === 200 ? { kind: 'debit', orderId: row.order_id } : null;
}
