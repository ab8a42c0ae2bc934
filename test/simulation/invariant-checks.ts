import { QueryBus } from '@nestjs/cqrs';
import { VerificationReport, VerifyMoneyInvariants } from '../../src/application/audit/verify-money-invariants';
import { EventStore, GlobalPosition, RecordedEvent, oneOf } from '../../src/application/ports/event-store.port';
import { PROJECTION_BARRIER, ProjectionBarrier } from '../../src/application/ports/read-models.port';
import { Currency } from '../../src/domain/money/currency';
import { Money } from '../../src/domain/money/money';
import { TransactionState, transactionDecider } from '../../src/domain/transaction/transaction.decider';
import { TRANSACTION_EVENTS, TransactionEvent } from '../../src/domain/transaction/transaction.events';
import { parseWalletStreamId } from '../../src/domain/wallet/wallet.stream';
import { SqlDatabase } from '../../src/infrastructure/sql/sql-database';
import { SQL_DATABASE } from '../../src/composition/tokens';
import { SimulatedService } from './simulated-service';

/** An order as the log tells it: its debit, the fold of its stream with the domain's own decider, its refunds. */
export interface FoldedOrder {
  orderId: string;
  partnerId: string;
  environment: string;
  currency: Currency;
  amount: Money;
  balanceAfter: Money;
  idempotencyKey: string;
  state: TransactionState;
  refunds: number;
}

export interface LogFold {
  orders: Map<string, FoldedOrder>;
  events: number;
  /** The last event folded: the read models are compared once they have applied it. */
  lastPosition: GlobalPosition | null;
}

export async function foldLog(store: EventStore): Promise<LogFold> {
  const orders = new Map<string, FoldedOrder>();
  const streams = new Map<string, TransactionEvent[]>();
  let after: GlobalPosition | null = null;
  let events = 0;
  for (;;) {
    const page: RecordedEvent[] = await store.readAll(after, { maxCount: 1000 });
    if (page.length === 0) break;
    for (const recorded of page) {
      events += 1;
      after = recorded.position;
      const wallet = parseWalletStreamId(recorded.streamId);
      if (wallet && recorded.type === 'WalletDebited') {
        const data = recorded.data;
        orders.set(data.orderId, {
          orderId: data.orderId,
          partnerId: wallet.partnerId,
          environment: wallet.environment,
          currency: data.currency,
          amount: money(data.amount, data.currency),
          balanceAfter: money(data.balanceAfter, data.currency),
          idempotencyKey: data.idempotencyKey,
          state: transactionDecider.initialState,
          refunds: 0,
        });
      } else if (wallet && recorded.type === 'WalletRefunded') {
        const order = orders.get(recorded.data.orderId);
        if (order) order.refunds += 1;
      } else if (recorded.streamId.startsWith('order-')) {
        const list = streams.get(recorded.streamId) ?? [];
        list.push(oneOf(TRANSACTION_EVENTS, recorded));
        streams.set(recorded.streamId, list);
      }
    }
  }
  for (const [streamId, list] of streams) {
    const order = orders.get(streamId.slice('order-'.length));
    if (order) order.state = list.reduce(transactionDecider.evolve, transactionDecider.initialState);
  }
  return { orders, events, lastPosition: after };
}

function money(text: string, currency: Currency): Money {
  const parsed = Money.parse(text, currency);
  if (!parsed) throw new Error(`unreadable amount in the log: ${text}`);
  return parsed;
}

interface OrderRow {
  order_id: string;
  partner_id: string;
  environment: string;
  status: string;
  amount: string;
  balance_after: string;
  refunded: boolean;
  late_answer: boolean;
}

/**
 * Waits until the read models have applied the log up to `position` (the last event of a fold).
 * Not up to the head: an event behind a transaction still open is not readable yet, and could
 * become readable after the head was asked for, in the fold but not in the read models.
 */
export async function catchUpReadModels(service: SimulatedService, position: GlobalPosition | null): Promise<void> {
  if (!(await service.get<ProjectionBarrier>(PROJECTION_BARRIER).waitFor(position, 30_000)))
    throw new Error('the read models did not catch up within 30 s');
}

/** The six money invariants, as `verify` checks them. A failed order may still await its refund (the grace is open-ended mid-run). */
export async function verifyMoneyInvariants(
  service: SimulatedService,
  refundGraceMs: number,
): Promise<VerificationReport> {
  return service.get(QueryBus).execute(new VerifyMoneyInvariants(refundGraceMs));
}

/** Differences between the orders read model and the fold of the log (empty when they agree). */
export async function compareOrdersReadModel(service: SimulatedService, fold: LogFold): Promise<string[]> {
  const rows = await service.get<SqlDatabase>(SQL_DATABASE).query<OrderRow>(
    `SELECT order_id, partner_id, environment, status, amount::text AS amount, balance_after::text AS balance_after,
            refunded_at IS NOT NULL AS refunded, late_answer IS NOT NULL AS late_answer
       FROM rm_orders`,
  );
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const row of rows) {
    seen.add(row.order_id);
    const order = fold.orders.get(row.order_id);
    if (!order) {
      problems.push(`rm_orders has ${row.order_id}, the log has no debit for it`);
      continue;
    }
    const expectedStatus = order.state.status === 'NONE' ? 'INITIATED' : order.state.status;
    const differences = [
      row.partner_id !== order.partnerId && `partner ${row.partner_id} ≠ ${order.partnerId}`,
      row.environment !== order.environment && `environment ${row.environment} ≠ ${order.environment}`,
      row.status !== expectedStatus && `status ${row.status} ≠ ${expectedStatus}`,
      !money(row.amount, order.currency).equals(order.amount) && `amount ${row.amount} ≠ ${order.amount.toDecimal()}`,
      !money(row.balance_after, order.currency).equals(order.balanceAfter) &&
        `balance_after ${row.balance_after} ≠ ${order.balanceAfter.toDecimal()}`,
      row.refunded !== order.refunds > 0 && `refunded ${row.refunded} ≠ ${order.refunds > 0}`,
      row.late_answer !== (order.state.lateAnswer !== null) &&
        `late answer ${row.late_answer} ≠ ${order.state.lateAnswer !== null}`,
    ].filter((difference): difference is string => typeof difference === 'string');
    if (differences.length > 0) problems.push(`order ${row.order_id}: ${differences.join(', ')}`);
  }
  for (const orderId of fold.orders.keys())
    if (!seen.has(orderId)) problems.push(`order ${orderId} is in the log but not in rm_orders`);
  return problems;
}
