import { Currency } from '../money/currency';
import { Environment } from '../shared/environment';
import { TransactionStatus, isOpen } from './transaction.decider';
import {
  ProviderAnsweredAfterHold,
  ProviderAnsweredAfterOutcome,
  TRANSACTION_EVENT_TYPES,
  TransactionEvent,
} from './transaction.events';
import { OrderProduct } from '../wallet/order-product';
import { WalletDebited, WalletRefunded } from '../wallet/wallet.events';
import { parseWalletStreamId } from '../wallet/wallet.stream';

/** An order as its debit placed it (INITIATED): what the placement answers, before anything else happened. */
export interface InitiatedOrder {
  orderId: string;
  product: OrderProduct;
  amount: string;
  currency: Currency;
  balanceAfter: string;
  reference: string | null;
  createdAt: string;
}

export function initiatedOrderOf(data: WalletDebited['data']): InitiatedOrder {
  const { orderId, product, amount, currency, balanceAfter, reference, placedAt } = data;
  return { orderId, product, amount, currency, balanceAfter, reference, createdAt: placedAt };
}

/** An order as partners, operators and finance see it: what its debit, refund and own stream leave. */
export interface OrderView extends InitiatedOrder {
  partnerId: string;
  environment: Environment;
  status: TransactionStatus;
  /** The provider the debit routed it to (live orders). */
  provider: string | null;
  operatorRef: string | null;
  settledAt: string | null;
  refundedAt: string | null;
  failureReason: string | null;
  /** When it was held (DISPUTED) and has no outcome since. */
  heldAt: string | null;
  /** The provider's final answer when it came after the order was held (operators only). */
  lateAnswer: ProviderAnsweredAfterHold['data'] | null;
  /** The provider's answer after the outcome, when recorded (contradicting it, or after a manual resolution). */
  answerAfterOutcome: ProviderAnsweredAfterOutcome['data'] | null;
  updatedAt: string;
}

/** An event of the order's wallet or of its own stream, with where and when it was written. */
export type OrderViewEvent = (WalletDebited | WalletRefunded | TransactionEvent) & {
  streamId: string;
  metadata: { occurredAt: string };
};

/** Whether the event is one the order view folds. */
export const isOrderViewEvent = <Event extends { type: string }>(
  event: Event,
): event is Extract<Event, { type: OrderViewEvent['type'] }> =>
  event.type === 'WalletDebited' || event.type === 'WalletRefunded' || TRANSACTION_EVENT_TYPES.has(event.type);

/**
 * The one fold of an order's events into its view. The debit makes the view (a second debit changes nothing) and
 * the other events move an existing one, so replaying a history the deciders wrote leaves the view it left.
 * The same object comes back when nothing changes.
 */
export function evolveOrderView(view: OrderView | null, event: OrderViewEvent): OrderView | null {
  if (event.type === 'WalletDebited') return view ?? placed(event);
  if (!view || event.data.orderId !== view.orderId) return view;
  const at = event.metadata.occurredAt;
  switch (event.type) {
    case 'WalletRefunded':
      return { ...view, refundedAt: event.data.refundedAt, updatedAt: at };
    case 'TransactionSubmitted':
      return view.status === 'INITIATED' ? { ...view, status: 'PENDING', updatedAt: at } : view;
    case 'TransactionSettled':
      return {
        ...view,
        status: 'SUCCESS',
        operatorRef: event.data.operatorRef,
        settledAt: event.data.settledAt,
        heldAt: null,
        updatedAt: at,
      };
    case 'TransactionFailed':
      return { ...view, status: 'FAILED', failureReason: event.data.reason, heldAt: null, updatedAt: at };
    case 'TransactionDisputed':
      return isOpen(view.status) ? { ...view, status: 'DISPUTED', heldAt: at, updatedAt: at } : view;
    case 'ProviderAnsweredAfterHold':
      return { ...view, lateAnswer: event.data, updatedAt: at };
    case 'ProviderAnsweredAfterOutcome':
      return { ...view, answerAfterOutcome: event.data, updatedAt: at };
    default:
      return view;
  }
}

/** The order's events folded from nothing (events of other orders are passed over). */
export const foldOrderView = (orderId: string, events: readonly OrderViewEvent[]): OrderView | null =>
  events.reduce<OrderView | null>(
    (view, event) => (view || event.data.orderId === orderId ? evolveOrderView(view, event) : view),
    null,
  );

function placed(event: Extract<OrderViewEvent, { type: 'WalletDebited' }>): OrderView | null {
  const wallet = parseWalletStreamId(event.streamId);
  if (!wallet) return null;
  const data = event.data;
  return {
    ...initiatedOrderOf(data),
    partnerId: wallet.partnerId,
    environment: wallet.environment,
    status: 'INITIATED',
    provider: data.route?.provider ?? null,
    operatorRef: null,
    settledAt: null,
    refundedAt: null,
    failureReason: null,
    heldAt: null,
    lateAnswer: null,
    answerAfterOutcome: null,
    updatedAt: data.placedAt,
  };
}
