import { isDeepStrictEqual } from 'node:util';
import { QueryBus } from '@nestjs/cqrs';
import { AuditOrder, OrderAudit } from '../../src/application/audit/audit-order';
import { orderFromLog } from '../../src/application/orders/order-from-log';
import { EVENTS_BY_CORRELATION, EventsByCorrelation } from '../../src/application/ports/events-by-correlation.port';
import { READ_MODELS, ReadModels } from '../../src/application/ports/read-models.port';
import { Money } from '../../src/domain/money/money';
import { OrderView } from '../../src/domain/transaction/order-view';
import { SQL_DATABASE } from '../../src/composition/tokens';
import { SqlDatabase } from '../../src/infrastructure/sql/sql-database';
import { LogFold } from './invariant-checks';
import { SimulatedService } from './simulated-service';

/**
 * Every reader of an order against the others, for each order of the fold: the orders read model on PostgreSQL
 * (its row, as the read models return it, and the columns only it keeps), the read right after a topup (the
 * order's history folded by the domain's order view) and the audit's outcome (its stream folded by the decider).
 * Call once the read models have caught up with the fold. Differences, empty when they agree.
 */
export async function compareOrderReaders(service: SimulatedService, fold: LogFold): Promise<string[]> {
  const readModels = service.get<ReadModels>(READ_MODELS);
  const events = service.get<EventsByCorrelation>(EVENTS_BY_CORRELATION);
  const queries = service.get(QueryBus);
  const ownColumns = await readModelOwnColumns(service);
  const problems: string[] = [];
  for (const orderId of fold.orders.keys()) {
    const fromLog = await orderFromLog(events, orderId);
    const projected = await readModels.order(orderId);
    const audit: OrderAudit = await queries.execute(new AuditOrder(orderId));
    if (!fromLog || !projected) {
      problems.push(
        `order ${orderId}: from the log ${fromLog ? 'found' : 'missing'}, read model ${projected ? 'found' : 'missing'}`,
      );
      continue;
    }
    const expected = comparable(fromLog);
    const actual = { ...projected, ...ownColumns.get(orderId) };
    if (!isDeepStrictEqual(actual, expected))
      problems.push(`order ${orderId}: read model ${JSON.stringify(actual)} ≠ fold ${JSON.stringify(expected)}`);
    if (audit.outcome !== fromLog.status)
      problems.push(`order ${orderId}: audit outcome ${String(audit.outcome)} ≠ fold status ${fromLog.status}`);
  }
  return problems;
}

/** The fold's view as the read models return it: exact amounts at the currency's scale, times in ISO 8601. */
function comparable(view: OrderView): OrderView {
  const iso = (at: string | null) => (at === null ? null : new Date(at).toISOString());
  const decimal = (text: string) => Money.parse(text, view.currency)?.toDecimal() ?? `unreadable ${text}`;
  return {
    ...view,
    amount: decimal(view.amount),
    balanceAfter: decimal(view.balanceAfter),
    settledAt: iso(view.settledAt),
    refundedAt: iso(view.refundedAt),
    heldAt: iso(view.heldAt),
    createdAt: new Date(view.createdAt).toISOString(),
    updatedAt: new Date(view.updatedAt).toISOString(),
  };
}

async function readModelOwnColumns(
  service: SimulatedService,
): Promise<Map<string, Pick<OrderView, 'provider' | 'heldAt'>>> {
  const rows = await service
    .get<SqlDatabase>(SQL_DATABASE)
    .query<{ order_id: string; provider: string | null; held_at: Date | string | null }>(
      'SELECT order_id, provider, held_at FROM rm_orders',
    );
  return new Map(
    rows.map((row) => [
      row.order_id,
      { provider: row.provider, heldAt: row.held_at === null ? null : new Date(row.held_at).toISOString() },
    ]),
  );
}
