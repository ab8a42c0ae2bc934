import { OrderView } from '../../domain/transaction/order-view';
import { plannedAtEachCall } from '../sql/prepared-statements';
import { SqlExecutor } from '../sql/sql-database';

/**
 * rm_orders rows as the domain's order view, read and written whole. Times and amounts are read as the
 * database's own text, so a row read and written back is the same row.
 */
interface StoredOrderRow {
  order_id: string;
  partner_id: string;
  environment: OrderView['environment'];
  status: OrderView['status'];
  amount: string;
  currency: OrderView['currency'];
  product: OrderView['product'];
  reference: string | null;
  balance_after: string;
  provider: string | null;
  operator_ref: string | null;
  settled_at: string | null;
  refunded_at: string | null;
  failure_reason: string | null;
  held_at: string | null;
  late_answer: OrderView['lateAnswer'];
  answer_after_outcome: OrderView['answerAfterOutcome'];
  created_at: string;
  updated_at: string;
}

const READ_ORDER_ROWS = plannedAtEachCall(
  `SELECT order_id, partner_id, environment, status, amount::text AS amount, currency, product, reference,
          balance_after::text AS balance_after, provider, operator_ref, settled_at::text AS settled_at,
          refunded_at::text AS refunded_at, failure_reason, held_at::text AS held_at, late_answer, answer_after_outcome,
          created_at::text AS created_at, updated_at::text AS updated_at
     FROM rm_orders WHERE order_id = ANY($1::text[])`,
);

export async function readOrderViews(orderIds: readonly string[], tx: SqlExecutor): Promise<Map<string, OrderView>> {
  const rows = await tx.query<StoredOrderRow>(READ_ORDER_ROWS, [orderIds]);
  return new Map(rows.map((row) => [row.order_id, viewOf(row)]));
}

/**
 * Writes the views in one statement: a new order's row whole; an existing row's changing columns only (what an
 * order's debit fixed never changes). One JSON document rather than one array per column, which the driver
 * would write as a string per element.
 */
export async function upsertOrderViews(views: readonly OrderView[], tx: SqlExecutor): Promise<void> {
  if (views.length === 0) return;
  await tx.query(
    `INSERT INTO rm_orders (order_id, partner_id, environment, kind, status, amount, currency, product, reference,
                           balance_after, provider, operator_ref, settled_at, refunded_at, failure_reason, held_at,
                           late_answer, answer_after_outcome, created_at, updated_at)
     SELECT o.order_id, o.partner_id, o.environment, o.kind, o.status, o.amount, o.currency, o.product, o.reference,
            o.balance_after, o.provider, o.operator_ref, o.settled_at, o.refunded_at, o.failure_reason, o.held_at,
            o.late_answer, o.answer_after_outcome, o.created_at, o.updated_at
       FROM jsonb_to_recordset($1::jsonb)
         AS o(order_id text, partner_id text, environment text, kind text, status text, amount numeric, currency text,
              product jsonb, reference text, balance_after numeric, provider text, operator_ref text,
              settled_at timestamptz, refunded_at timestamptz, failure_reason text, held_at timestamptz,
              late_answer jsonb, answer_after_outcome jsonb, created_at timestamptz, updated_at timestamptz)
     ON CONFLICT (order_id) DO UPDATE SET
       status = EXCLUDED.status,
       operator_ref = EXCLUDED.operator_ref,
       settled_at = EXCLUDED.settled_at,
       refunded_at = EXCLUDED.refunded_at,
       failure_reason = EXCLUDED.failure_reason,
       held_at = EXCLUDED.held_at,
       late_answer = EXCLUDED.late_answer,
       answer_after_outcome = EXCLUDED.answer_after_outcome,
       updated_at = EXCLUDED.updated_at`,
    [JSON.stringify(views.map(rowOf))],
  );
}

function viewOf(row: StoredOrderRow): OrderView {
  return {
    orderId: row.order_id,
    partnerId: row.partner_id,
    environment: row.environment,
    status: row.status,
    amount: row.amount,
    currency: row.currency,
    product: row.product,
    reference: row.reference,
    balanceAfter: row.balance_after,
    provider: row.provider,
    operatorRef: row.operator_ref,
    settledAt: row.settled_at,
    refundedAt: row.refunded_at,
    failureReason: row.failure_reason,
    heldAt: row.held_at,
    lateAnswer: row.late_answer,
    answerAfterOutcome: row.answer_after_outcome,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function rowOf(view: OrderView): StoredOrderRow & { kind: string } {
  return {
    order_id: view.orderId,
    partner_id: view.partnerId,
    environment: view.environment,
    kind: view.product.kind,
    status: view.status,
    amount: view.amount,
    currency: view.currency,
    product: view.product,
    reference: view.reference,
    balance_after: view.balanceAfter,
    provider: view.provider,
    operator_ref: view.operatorRef,
    settled_at: view.settledAt,
    refunded_at: view.refundedAt,
    failure_reason: view.failureReason,
    held_at: view.heldAt,
    late_answer: view.lateAnswer,
    answer_after_outcome: view.answerAfterOutcome,
    created_at: view.createdAt,
    updated_at: view.updatedAt,
  };
}
