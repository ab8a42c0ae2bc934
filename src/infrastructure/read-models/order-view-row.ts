import { StoredOrderView } from '../../application/ports/read-models.port';
import { Currency } from '../../domain/money/currency';
import { Environment } from '../../domain/shared/environment';
import { TransactionStatus } from '../../domain/transaction/transaction.decider';
import { ProviderAnsweredAfterHold, ProviderAnsweredAfterOutcome } from '../../domain/transaction/transaction.events';
import { OrderProduct } from '../../domain/wallet/order-product';
import { decimal, iso } from './read-model-values';

export interface OrderViewRow {
  order_id: string;
  partner_id: string;
  environment: Environment;
  status: TransactionStatus;
  amount: string;
  currency: Currency;
  product: OrderProduct;
  reference: string | null;
  balance_after: string;
  operator_ref: string | null;
  settled_at: Date | string | null;
  refunded_at: Date | string | null;
  failure_reason: string | null;
  late_answer: ProviderAnsweredAfterHold['data'] | null;
  answer_after_outcome: ProviderAnsweredAfterOutcome['data'] | null;
  created_at: Date | string;
  updated_at: Date | string;
}

export const ORDER_COLUMNS = `order_id, partner_id, environment, status, amount::text AS amount, currency, product, reference,
  balance_after::text AS balance_after, operator_ref, settled_at, refunded_at, failure_reason, late_answer, answer_after_outcome, created_at, updated_at`;

export function toOrderView(row: OrderViewRow): StoredOrderView {
  return {
    orderId: row.order_id,
    partnerId: row.partner_id,
    environment: row.environment,
    status: row.status,
    amount: decimal(row.amount, row.currency),
    currency: row.currency,
    product: row.product,
    reference: row.reference,
    balanceAfter: decimal(row.balance_after, row.currency),
    operatorRef: row.operator_ref,
    settledAt: row.settled_at === null ? null : iso(row.settled_at),
    refundedAt: row.refunded_at === null ? null : iso(row.refunded_at),
    failureReason: row.failure_reason,
    lateAnswer: row.late_answer,
    answerAfterOutcome: row.answer_after_outcome,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}
