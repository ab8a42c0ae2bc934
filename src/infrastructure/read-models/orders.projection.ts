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
import { OrderView, evolveOrderView } from '../../domain/transaction/order-view';
import { BatchScope, SqlProjection } from '../projections/sql-projection';
import { SqlExecutor } from '../sql/sql-database';
import { upsertOrderViews } from './order-rows';
import { ORDER_VIEWS_OF_BATCH } from './order-views-of-batch';

/**
 * Orders as partners and operators see them, with the internal status. No index names `status`, so settling rewrites
 * the row in place (HOT update); held orders are found by `held_at`, set while DISPUTED.
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
  // 2: a provider's days found by page ranges of created_at, not a B-tree entry per order (decision 0151).
  // 3: only orders with a reference have an entry in the index that finds them by it (decision 0164).
  schemaVersion: 3,
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
DROP INDEX IF EXISTS rm_orders_by_reference;
CREATE INDEX IF NOT EXISTS rm_orders_by_given_reference ON rm_orders (partner_id, environment, reference)
  WHERE reference IS NOT NULL;
CREATE INDEX IF NOT EXISTS rm_orders_held_since ON rm_orders (created_at, order_id) WHERE held_at IS NOT NULL;
DROP INDEX IF EXISTS rm_orders_by_provider;
CREATE INDEX IF NOT EXISTS rm_orders_created_ranges ON rm_orders USING brin (created_at) WITH (autosummarize = on);
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
  deferrableWrites: true,

  apply(event: RecordedEvent<OrderRowEvent>, tx: SqlExecutor, batch: BatchScope): Promise<void> {
    return applyOrderEvents([event], tx, batch);
  },

  applyBatch(events: readonly RecordedEvent<OrderRowEvent>[], tx: SqlExecutor, batch: BatchScope): Promise<void> {
    return applyOrderEvents(events, tx, batch);
  },
};

/**
 * The batch's events folded by the domain's order view onto the stored rows of their orders: one read of those
 * rows and one upsert of the rows that changed, whatever the batch holds (replays included: the other events move
 * a row as they did the first time). Orders placed in the batch are folded from their debit, not read (decision
 * 0168): a replay from an order's debit refolds its whole history. The rows are left in the batch's scope for the
 * read models after this one.
 */
async function applyOrderEvents(
  events: readonly RecordedEvent<OrderRowEvent>[],
  tx: SqlExecutor,
  batch: BatchScope,
): Promise<void> {
  const ofBatch = batch.of(ORDER_VIEWS_OF_BATCH, tx);
  ofBatch.placedInBatch(events.filter((event) => event.type === 'WalletDebited').map((event) => event.data.orderId));
  const stored = await ofBatch.of(events.map((event) => event.data.orderId));
  const views = new Map<string, OrderView>(stored);
  for (const event of events) {
    const view = evolveOrderView(views.get(event.data.orderId) ?? null, event);
    if (view) views.set(event.data.orderId, view);
  }
  const changed = [...views].filter(([orderId, view]) => stored.get(orderId) !== view).map(([, view]) => view);
  await upsertOrderViews(changed, tx);
  ofBatch.wrote(changed);
}
