import { RecordedEvent } from '../../application/ports/event-store.port';
import {
  ProviderAnsweredAfterHold,
  ProviderAnsweredAfterOutcome,
  TransactionDisputed,
  TransactionFailed,
  TransactionSettled,
  TransactionSubmitted,
} from '../../domain/transaction/transaction.events';
import { WalletDebited, WalletRefunded } from '../../domain/wallet/wallet.events';
import { parseWalletStreamId } from '../../domain/wallet/wallet.stream';
import { SqlProjection, runsByType } from '../projections/sql-projection';
import { SqlExecutor } from '../sql/sql-database';

/**
 * Orders as partners and operators see them. The internal status is kept here
 * (INITIATED, PENDING, DISPUTED, SUCCESS, FAILED); the API maps it to the three public ones.
 * No index names `status`, so settling an order rewrites its row in place (a HOT update, with
 * no new index entries, room for which the fill factor leaves); held orders are found through
 * `held_at`, set while an order is DISPUTED.
 */
/** What moves an order's row. */
export type OrderRowEvent =
  | WalletDebited
  | WalletRefunded
  | TransactionSubmitted
  | TransactionSettled
  | TransactionFailed
  | TransactionDisputed
  | ProviderAnsweredAfterHold
  | ProviderAnsweredAfterOutcome;

export const ordersProjection: SqlProjection<OrderRowEvent> = {
  name: 'orders',
  schemaVersion: 1,
  schema: {
    name: 'orders',
    sql: `
CREATE TABLE IF NOT EXISTS rm_orders (
  order_id text PRIMARY KEY,
  partner_id text NOT NULL,
  environment text NOT NULL,
  kind text NOT NULL,
  status text NOT NULL,
  amount numeric(20, 4) NOT NULL,
  currency text NOT NULL,
  product jsonb NOT NULL,
  reference text,
  balance_after numeric(20, 4) NOT NULL,
  operator_ref text,
  settled_at timestamptz,
  refunded_at timestamptz,
  failure_reason text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  held_at timestamptz,
  late_answer jsonb,
  answer_after_outcome jsonb
) WITH (fillfactor = 70);
ALTER TABLE rm_orders ADD COLUMN IF NOT EXISTS late_answer jsonb;
ALTER TABLE rm_orders ADD COLUMN IF NOT EXISTS provider text;
ALTER TABLE rm_orders ADD COLUMN IF NOT EXISTS answer_after_outcome jsonb;
DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'rm_orders' AND column_name = 'held_at') THEN ALTER TABLE rm_orders ADD COLUMN held_at timestamptz; UPDATE rm_orders SET held_at = updated_at WHERE status = 'DISPUTED'; ALTER TABLE rm_orders SET (fillfactor = 70); END IF; END $$;
DROP INDEX IF EXISTS rm_orders_held;
CREATE INDEX IF NOT EXISTS rm_orders_by_partner ON rm_orders (partner_id, environment, created_at DESC, order_id DESC);
CREATE INDEX IF NOT EXISTS rm_orders_by_reference ON rm_orders (partner_id, environment, reference);
CREATE INDEX IF NOT EXISTS rm_orders_held_since ON rm_orders (created_at, order_id) WHERE held_at IS NOT NULL;
CREATE INDEX IF NOT EXISTS rm_orders_by_provider ON rm_orders (provider, created_at) WHERE provider IS NOT NULL;
`,
  },
  handles: new Set([
    'WalletDebited',
    'WalletRefunded',
    'TransactionSubmitted',
    'TransactionSettled',
    'TransactionFailed',
    'TransactionDisputed',
    'ProviderAnsweredAfterHold',
    'ProviderAnsweredAfterOutcome',
  ]),

  async apply(event: RecordedEvent<OrderRowEvent>, tx: SqlExecutor): Promise<void> {
    const at = event.metadata.occurredAt;
    switch (event.type) {
      case 'WalletDebited': {
        const wallet = parseWalletStreamId(event.streamId);
        if (!wallet) return;
        const data = event.data;
        await tx.query(
          `INSERT INTO rm_orders (order_id, partner_id, environment, kind, status, amount, currency, product, reference,
                                 balance_after, created_at, updated_at, provider)
           VALUES ($1, $2, $3, $4, 'INITIATED', $5::numeric, $6, $7::jsonb, $8, $9::numeric, $10, $10, $11)
           ON CONFLICT (order_id) DO NOTHING`,
          orderRowOf(wallet, data),
        );
        return;
      }
      case 'WalletRefunded': {
        const data = event.data;
        await tx.query('UPDATE rm_orders SET refunded_at = $2, updated_at = $3 WHERE order_id = $1', [
          data.orderId,
          data.refundedAt,
          at,
        ]);
        return;
      }
    }
    switch (event.type) {
      case 'TransactionSubmitted':
        await tx.query(
          `UPDATE rm_orders SET status = 'PENDING', updated_at = $2 WHERE order_id = $1 AND status = 'INITIATED'`,
          [event.data.orderId, at],
        );
        return;
      case 'TransactionSettled':
        await tx.query(
          `UPDATE rm_orders SET status = 'SUCCESS', operator_ref = $2, settled_at = $3, updated_at = $4, held_at = NULL WHERE order_id = $1`,
          [event.data.orderId, event.data.operatorRef, event.data.settledAt, at],
        );
        return;
      case 'TransactionFailed':
        await tx.query(
          `UPDATE rm_orders SET status = 'FAILED', failure_reason = $2, updated_at = $3, held_at = NULL WHERE order_id = $1`,
          [event.data.orderId, event.data.reason, at],
        );
        return;
      case 'TransactionDisputed':
        await tx.query(
          `UPDATE rm_orders SET status = 'DISPUTED', updated_at = $2, held_at = $2 WHERE order_id = $1 AND status IN ('INITIATED', 'PENDING')`,
          [event.data.orderId, at],
        );
        return;
      case 'ProviderAnsweredAfterHold':
        await tx.query(`UPDATE rm_orders SET late_answer = $2::jsonb, updated_at = $3 WHERE order_id = $1`, [
          event.data.orderId,
          JSON.stringify(event.data),
          at,
        ]);
        return;
      case 'ProviderAnsweredAfterOutcome':
        await tx.query(`UPDATE rm_orders SET answer_after_outcome = $2::jsonb, updated_at = $3 WHERE order_id = $1`, [
          event.data.orderId,
          JSON.stringify(event.data),
          at,
        ]);
        return;
    }
  },

  /**
   * The batch's debits become one multi-row insert, made first: an order's debit precedes its
   * other events and rows of different orders do not interact, so this leaves the rows that log
   * order would. An order whose outcome follows its debit in the same batch (its submission and
   * the provider's answer, or an answer written with the debit) is inserted with that outcome, so
   * its row is written once. Then runs of submissions and settlements become one update each (an
   * order has at most one of each, so a run names every order once); anything else is applied
   * event by event, in log order.
   */
  async applyBatch(events: readonly RecordedEvent<OrderRowEvent>[], tx: SqlExecutor): Promise<void> {
    const { debits, absorbed } = outcomesWithTheirDebits(events);
    if (debits.length > 0) await insertDebits(debits, tx);
    const rest = events.filter((event) => event.type !== 'WalletDebited' && !absorbed.has(event));
    for (const run of runsByType(rest)) {
      if (run.length > 1 && run[0].type === 'TransactionSubmitted' && distinctOrders(run)) await markSubmitted(run, tx);
      else if (run.length > 1 && run[0].type === 'TransactionSettled' && distinctOrders(run))
        // A run is of one type: every event of it is a settlement.
        await markSettled(
          run.filter((event) => event.type === 'TransactionSettled'),
          tx,
        );
      else for (const event of run) await ordersProjection.apply(event, tx);
    }
  },
};

const orderIdOf = (event: RecordedEvent<OrderRowEvent>): string => event.data.orderId;

function distinctOrders(run: readonly RecordedEvent<OrderRowEvent>[]): boolean {
  return new Set(run.map(orderIdOf)).size === run.length;
}

/** A debit of the batch, with the outcome that follows it in the same batch, if one does. */
interface DebitWithOutcome {
  debit: RecordedEvent<WalletDebited>;
  outcome: RecordedEvent<TransactionSettled> | RecordedEvent<TransactionFailed> | null;
}

/**
 * The batch's debits, each with its order's outcome when nothing but a submission comes between them in the batch,
 * and the events so taken into the debits' rows (the submissions and outcomes), which are then not applied again.
 */
function outcomesWithTheirDebits(events: readonly RecordedEvent<OrderRowEvent>[]): {
  debits: DebitWithOutcome[];
  absorbed: Set<RecordedEvent<OrderRowEvent>>;
} {
  const debits: DebitWithOutcome[] = [];
  const absorbed = new Set<RecordedEvent<OrderRowEvent>>();
  /** Orders debited in this batch whose row may still take their outcome, with the submissions seen since. */
  const open = new Map<string, { entry: DebitWithOutcome; submissions: RecordedEvent<OrderRowEvent>[] }>();
  for (const event of events) {
    if (event.type === 'WalletDebited') {
      const entry: DebitWithOutcome = { debit: event, outcome: null };
      debits.push(entry);
      if (!open.has(event.data.orderId)) open.set(event.data.orderId, { entry, submissions: [] });
      continue;
    }
    const waiting = open.get(event.data.orderId);
    if (!waiting) continue;
    if (event.type === 'TransactionSubmitted') {
      waiting.submissions.push(event);
      continue;
    }
    open.delete(event.data.orderId);
    if (event.type !== 'TransactionSettled' && event.type !== 'TransactionFailed') continue;
    waiting.entry.outcome = event;
    for (const taken of [...waiting.submissions, event]) absorbed.add(taken);
  }
  return { debits, absorbed };
}

async function insertDebits(run: readonly DebitWithOutcome[], tx: SqlExecutor): Promise<void> {
  const rows: Record<string, string | null>[] = [];
  for (const { debit, outcome } of run) {
    const wallet = parseWalletStreamId(debit.streamId);
    if (!wallet) continue;
    const values = orderRowOf(wallet, debit.data);
    rows.push({
      ...Object.fromEntries(ORDER_ROW_FIELDS.map((field, index) => [field, values[index]])),
      ...outcomeColumnsOf(outcome),
    });
  }
  if (rows.length === 0) return;
  // One JSON document rather than one array per column: the driver writes array literals in
  // JavaScript, a string per element, which made these parameters one of the service's larger allocations.
  // On a conflict, a row without an outcome keeps the first row of its order, as applying the debits one by
  // one would, and a row with one sets it as the outcome's own update would.
  await tx.query(
    `INSERT INTO rm_orders (order_id, partner_id, environment, kind, status, amount, currency, product, reference,
                           balance_after, created_at, updated_at, provider, operator_ref, settled_at, failure_reason)
     SELECT o.order_id, o.partner_id, o.environment, o.kind, o.status, o.amount, o.currency, o.product::jsonb, o.reference,
            o.balance_after, o.placed_at, COALESCE(o.updated_at, o.placed_at), o.provider, o.operator_ref, o.settled_at,
            o.failure_reason
       FROM jsonb_to_recordset($1::jsonb)
         AS o(order_id text, partner_id text, environment text, kind text, status text, amount numeric, currency text,
              product text, reference text, balance_after numeric, placed_at timestamptz, provider text,
              operator_ref text, settled_at timestamptz, failure_reason text, updated_at timestamptz)
     ON CONFLICT (order_id) DO UPDATE SET
       status = EXCLUDED.status,
       operator_ref = CASE WHEN EXCLUDED.status = 'SUCCESS' THEN EXCLUDED.operator_ref ELSE rm_orders.operator_ref END,
       settled_at = CASE WHEN EXCLUDED.status = 'SUCCESS' THEN EXCLUDED.settled_at ELSE rm_orders.settled_at END,
       failure_reason = CASE WHEN EXCLUDED.status = 'FAILED' THEN EXCLUDED.failure_reason ELSE rm_orders.failure_reason END,
       updated_at = EXCLUDED.updated_at,
       held_at = NULL
     WHERE EXCLUDED.status <> 'INITIATED'`,
    [JSON.stringify(rows)],
  );
}

/** The columns an outcome sets (as its own update would), or a new order's. */
function outcomeColumnsOf(outcome: DebitWithOutcome['outcome']): Record<string, string | null> {
  if (!outcome) return { status: 'INITIATED' };
  const at = outcome.metadata.occurredAt;
  if (outcome.type === 'TransactionSettled') {
    const { operatorRef, settledAt } = outcome.data;
    return { status: 'SUCCESS', operator_ref: operatorRef, settled_at: settledAt, updated_at: at };
  }
  return { status: 'FAILED', failure_reason: outcome.data.reason, updated_at: at };
}

async function markSubmitted(run: readonly RecordedEvent<OrderRowEvent>[], tx: SqlExecutor): Promise<void> {
  await tx.query(
    `UPDATE rm_orders SET status = 'PENDING', updated_at = s.at
       FROM unnest($1::text[], $2::timestamptz[]) AS s(order_id, at)
      WHERE rm_orders.order_id = s.order_id AND rm_orders.status = 'INITIATED'`,
    [run.map(orderIdOf), run.map((event) => event.metadata.occurredAt)],
  );
}

async function markSettled(run: readonly RecordedEvent<TransactionSettled>[], tx: SqlExecutor): Promise<void> {
  const settled = run.map((event) => event.data);
  await tx.query(
    `UPDATE rm_orders SET status = 'SUCCESS', operator_ref = s.operator_ref, settled_at = s.settled_at, updated_at = s.at, held_at = NULL
       FROM unnest($1::text[], $2::text[], $3::timestamptz[], $4::timestamptz[]) AS s(order_id, operator_ref, settled_at, at)
      WHERE rm_orders.order_id = s.order_id`,
    [
      settled.map((data) => data.orderId),
      settled.map((data) => data.operatorRef),
      settled.map((data) => data.settledAt),
      run.map((event) => event.metadata.occurredAt),
    ],
  );
}

/** The names of orderRowOf's values, in its order. */
const ORDER_ROW_FIELDS = [
  'order_id',
  'partner_id',
  'environment',
  'kind',
  'amount',
  'currency',
  'product',
  'reference',
  'balance_after',
  'placed_at',
  'provider',
] as const;

/** The columns of a new order's row, from its debit, in the order the inserts name them. */
function orderRowOf(
  wallet: { partnerId: string; environment: string },
  data: WalletDebited['data'],
): (string | null)[] {
  return [
    data.orderId,
    wallet.partnerId,
    wallet.environment,
    data.product.kind,
    data.amount,
    data.currency,
    JSON.stringify(data.product),
    data.reference,
    data.balanceAfter,
    data.placedAt,
    data.route?.provider ?? null,
  ];
}
