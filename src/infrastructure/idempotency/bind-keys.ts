import { KeyBinding } from '../../application/ports/key-binding-append.port';
import { SqlExecutor } from '../sql/sql-database';

/** Keys bound to their orders' debits, answered 200 from those debits (no body kept: decision 0162). */
export async function bindAnsweredKeys(db: SqlExecutor, bindings: readonly KeyBinding[]): Promise<void> {
  if (bindings.length === 0) return;
  await db.query(
    `INSERT INTO idempotency_keys (partner_id, environment, idempotency_key, request_hash, order_id, state, response_status,
                                   locked_until, created_at, expires_at)
     SELECT v.partner_id, v.environment, v.idempotency_key, v.request_hash, v.order_id, 'completed', 200, v.created_at, v.created_at, v.expires_at
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::timestamptz[], $7::timestamptz[])
         AS v(partner_id, environment, idempotency_key, request_hash, order_id, created_at, expires_at)
     ON CONFLICT (partner_id, environment, idempotency_key) DO NOTHING`,
    [
      bindings.map((binding) => binding.partnerId),
      bindings.map((binding) => binding.environment),
      bindings.map((binding) => binding.key),
      bindings.map((binding) => binding.requestHash),
      bindings.map((binding) => binding.orderId),
      bindings.map((binding) => binding.createdAt),
      bindings.map((binding) => binding.expiresAt),
    ],
  );
}
