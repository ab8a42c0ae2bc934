import { Money } from '../../domain/money/money';
import { Currency } from '../../domain/money/currency';
import { publicStatusOf } from '../../domain/transaction/transaction.decider';
import { OrderProduct } from '../../domain/wallet/order-product';
import { OrderView } from '../ports/read-models.port';

/** amount_local is returned with four decimal places, as the interface shows it. */
export const amountLocal = (amount: string, currency: Currency): string => {
  const money = Money.parse(amount, currency);
  if (!money) throw new Error(`unreadable amount ${amount}`);
  return money.toDecimal(4);
};

export interface OrderFacts {
  orderId: string;
  product: OrderProduct;
  amount: string;
  currency: Currency;
  balanceAfter: string;
  reference: string | null;
  createdAt: string;
}

/** The Order resource of POST /topup and POST /pay-bill; the status is always PENDING there. */
export function orderResource(order: OrderFacts): Record<string, unknown> {
  return { order_id: order.orderId, status: 'PENDING', ...orderPreview(order), created_at: order.createdAt };
}

/** What a dry run (`validate_only`) answers under `would`: the Order without what only a placed order has. */
export function orderPreview(order: Omit<OrderFacts, 'orderId' | 'createdAt'>): Record<string, unknown> {
  const target =
    order.product.kind === 'topup'
      ? { operator_id: order.product.operatorId, phone: order.product.phone }
      : { biller_id: order.product.billerId, consumer_number: order.product.consumerNumber };
  return {
    ...target,
    amount_local: amountLocal(order.amount, order.currency),
    currency: order.currency,
    balance_after: order.balanceAfter,
    reference: order.reference,
  };
}

/** The TransactionStatus resource: only PENDING, SUCCESS and FAILED are ever shown. */
export function transactionStatusResource(order: OrderView): Record<string, unknown> {
  const target =
    order.product.kind === 'topup'
      ? { operator_id: order.product.operatorId, phone: order.product.phone }
      : { biller_id: order.product.billerId, consumer_number: order.product.consumerNumber };
  return {
    order_id: order.orderId,
    status: publicStatusOf(order.status, order.refundedAt),
    amount_local: amountLocal(order.amount, order.currency),
    currency: order.currency,
    operator_ref: order.status === 'SUCCESS' ? order.operatorRef : null,
    settled_at: order.settledAt,
    refunded_at: order.refundedAt,
    reference: order.reference,
    ...target,
    created_at: order.createdAt,
  };
}
