import { OrderView } from '../../domain/transaction/order-view';
import { BatchShare } from '../projections/sql-projection';
import { SqlExecutor } from '../sql/sql-database';
import { readOrderViews } from './order-rows';

/**
 * The orders a projection batch touches, read from rm_orders at most once per batch and then kept as the orders
 * projection left them, so the events feed, the daily counters and the outcome metrics do not read them again.
 */
export class OrderViewsOfBatch {
  /** null: read, and not in rm_orders. */
  private readonly views = new Map<string, OrderView | null>();

  constructor(private readonly tx: SqlExecutor) {}

  /**
   * Orders the batch places (their debits are in it): no row of theirs can be stored, since an order's debit is its
   * first event and rows are stored only with the checkpoint that passed their events (decision 0168), so they are
   * not read. An order the batch already knows stays as it is.
   */
  placedInBatch(orderIds: Iterable<string>): void {
    for (const orderId of orderIds) if (!this.views.has(orderId)) this.views.set(orderId, null);
  }

  /** The views of those orders that exist, as the batch has them so far. */
  async of(orderIds: readonly string[]): Promise<Map<string, OrderView>> {
    const unread = [...new Set(orderIds.filter((orderId) => !this.views.has(orderId)))];
    if (unread.length > 0) {
      const stored = await readOrderViews(unread, this.tx);
      for (const orderId of unread) this.views.set(orderId, stored.get(orderId) ?? null);
    }
    const found = new Map<string, OrderView>();
    for (const orderId of orderIds) {
      const view = this.views.get(orderId);
      if (view) found.set(orderId, view);
    }
    return found;
  }

  /** The orders projection's rows, once written in the batch's transaction. */
  wrote(views: Iterable<OrderView>): void {
    for (const view of views) this.views.set(view.orderId, view);
  }

  /** Whether the batch read or wrote this order (it may have found no row). */
  knows(orderId: string): boolean {
    return this.views.has(orderId);
  }

  /** A view already in hand (after the batch committed, nothing is read). */
  inHand(orderId: string): OrderView | undefined {
    return this.views.get(orderId) ?? undefined;
  }
}

export const ORDER_VIEWS_OF_BATCH: BatchShare<OrderViewsOfBatch> = {
  create: (tx) => new OrderViewsOfBatch(tx),
};
