import { TransactionPage } from '../../application/orders/list-transactions';
import { StoredOrderView } from '../../application/ports/read-models.port';
import { OrderAnswerWriter } from '../../application/ports/order-answer-writer.port';
import {
  FieldChecks,
  holdsFields,
  isExactly,
  isInteger,
  isText,
  isTextOrNull,
} from '../../application/shared/resource-checks';
import { amountLocal } from '../../domain/money/money';
import { Currency, isCurrency } from '../../domain/money/currency';
import { InitiatedOrder } from '../../domain/transaction/order-view';
import { PublicStatus, publicStatusOf } from '../../domain/transaction/transaction.decider';
import { OrderProduct } from '../../domain/wallet/order-product';

/** What a topup is for, as every order resource shows it. */
export interface TopupTarget {
  operator_id: number;
  phone: string;
}

/** What a bill payment is for, as every order resource shows it. */
export interface BillPaymentTarget {
  biller_id: number;
  consumer_number: string;
}

/** The money of an order as a placement shows it (its Order, or what a dry run would place). */
export interface OrderMoney {
  amount_local: string;
  currency: Currency;
  balance_after: string;
  reference: string | null;
}

/** The TopupPreview resource: the topup a dry run would place. */
export type TopupPreviewResource = TopupTarget & OrderMoney;
/** The BillPaymentPreview resource: the bill payment a dry run would place. */
export type BillPaymentPreviewResource = BillPaymentTarget & OrderMoney;

/** The fields of the Order resource that only a placed order has. */
export interface PlacedOrderFields {
  order_id: string;
  status: 'PENDING';
  created_at: string;
}

/** The TopupOrder resource: the answer of POST /topup. */
export type TopupOrderResource = PlacedOrderFields & TopupPreviewResource;
/** The BillPaymentOrder resource: the answer of POST /pay-bill. */
export type BillPaymentOrderResource = PlacedOrderFields & BillPaymentPreviewResource;

/** The answer of a dry run (`validate_only`): every check passed, and what would be placed. */
export interface DryRunResource<Preview> {
  validate_only: true;
  would: Preview;
}
/** The TopupDryRun resource. */
export type TopupDryRunResource = DryRunResource<TopupPreviewResource>;
/** The BillPaymentDryRun resource. */
export type BillPaymentDryRunResource = DryRunResource<BillPaymentPreviewResource>;

export type OrderResource = TopupOrderResource | BillPaymentOrderResource;
export type OrderDryRunResource = TopupDryRunResource | BillPaymentDryRunResource;
export const isTopupDryRun = (answer: OrderDryRunResource): answer is TopupDryRunResource =>
  'operator_id' in answer.would;

/** The Order resource of POST /topup and POST /pay-bill; the status is always PENDING there. */
export function orderResource(order: InitiatedOrder): OrderResource {
  return { order_id: order.orderId, status: 'PENDING', ...orderPreview(order), created_at: order.createdAt };
}

/** What a dry run (`validate_only`) answers under `would`: the Order without what only a placed order has. */
function orderPreview(
  order: Omit<InitiatedOrder, 'orderId' | 'createdAt'>,
): TopupPreviewResource | BillPaymentPreviewResource {
  return {
    ...targetOf(order.product),
    amount_local: amountLocal(order.amount, order.currency),
    currency: order.currency,
    balance_after: order.balanceAfter,
    reference: order.reference,
  };
}

/** The answer of a dry run whose order would be `order`. */
export function dryRunResource(order: Omit<InitiatedOrder, 'orderId' | 'createdAt'>): OrderDryRunResource {
  const would = orderPreview(order);
  // One object either way: the test only tells the compiler which kind of preview it holds.
  return 'operator_id' in would ? { validate_only: true, would } : { validate_only: true, would };
}

/** The TransactionStatus resource: only PENDING, SUCCESS and FAILED are ever shown. */
export type TransactionStatusResource = TransactionStatusFields & (TopupTarget | BillPaymentTarget);

export interface TransactionStatusFields {
  order_id: string;
  status: PublicStatus;
  amount_local: string;
  currency: Currency;
  operator_ref: string | null;
  settled_at: string | null;
  refunded_at: string | null;
  reference: string | null;
  created_at: string;
}

export function transactionStatusResource(order: StoredOrderView): TransactionStatusResource {
  return {
    order_id: order.orderId,
    status: publicStatusOf(order.status, order.refundedAt),
    amount_local: amountLocal(order.amount, order.currency),
    currency: order.currency,
    operator_ref: order.status === 'SUCCESS' ? order.operatorRef : null,
    settled_at: order.settledAt,
    refunded_at: order.refundedAt,
    reference: order.reference,
    ...targetOf(order.product),
    created_at: order.createdAt,
  };
}

/** The TransactionList resource: one page of the caller's transactions, newest first. */
export interface TransactionListResource {
  count: number;
  transactions: TransactionStatusResource[];
  next_cursor: string | null;
}

export const transactionListResource = (page: TransactionPage): TransactionListResource => ({
  count: page.orders.length,
  transactions: page.orders.map(transactionStatusResource),
  next_cursor: page.nextCursor,
});

function targetOf(product: OrderProduct): TopupTarget | BillPaymentTarget {
  return product.kind === 'topup'
    ? { operator_id: product.operatorId, phone: product.phone }
    : { biller_id: product.billerId, consumer_number: product.consumerNumber };
}

/** Plain JSON.stringify, where no schema-compiled writer is bound (processes that place no orders, a data import). */
export const JSON_ORDER_ANSWERS: OrderAnswerWriter = {
  placed: (order) => JSON.stringify(orderResource(order)),
  dryRun: (order) => JSON.stringify(dryRunResource(order)),
};

/**
 * A placement's answer read back from the bytes it was sent as (and kept as, for replays): checked
 * field by field to be the Order or the dry-run answer that the placement wrote.
 */
export function readOrderAnswer(body: string): OrderResource | OrderDryRunResource {
  const value: unknown = JSON.parse(body);
  if (
    holdsFields(value, TOPUP_ORDER) ||
    holdsFields(value, BILL_PAYMENT_ORDER) ||
    holdsFields(value, TOPUP_DRY_RUN) ||
    holdsFields(value, BILL_PAYMENT_DRY_RUN)
  )
    return value;
  throw new Error('a placement answer is not an Order or a dry-run answer');
}

const MONEY = { amount_local: isText, currency: isCurrency, balance_after: isText, reference: isTextOrNull };

const TOPUP_PREVIEW: FieldChecks<TopupPreviewResource> = { operator_id: isInteger, phone: isText, ...MONEY };
const BILL_PAYMENT_PREVIEW: FieldChecks<BillPaymentPreviewResource> = {
  biller_id: isInteger,
  consumer_number: isText,
  ...MONEY,
};

const PLACED = { order_id: isText, status: isExactly('PENDING'), created_at: isText };

const TOPUP_ORDER: FieldChecks<TopupOrderResource> = { ...PLACED, ...TOPUP_PREVIEW };
const BILL_PAYMENT_ORDER: FieldChecks<BillPaymentOrderResource> = { ...PLACED, ...BILL_PAYMENT_PREVIEW };

const TOPUP_DRY_RUN: FieldChecks<TopupDryRunResource> = {
  validate_only: isExactly(true),
  would: (value): value is TopupPreviewResource => holdsFields(value, TOPUP_PREVIEW),
};
const BILL_PAYMENT_DRY_RUN: FieldChecks<BillPaymentDryRunResource> = {
  validate_only: isExactly(true),
  would: (value): value is BillPaymentPreviewResource => holdsFields(value, BILL_PAYMENT_PREVIEW),
};
