import { Currency } from '../../domain/money/currency';
import { Environment } from '../../domain/shared/environment';
import { PublicStatus, TransactionStatus, publicStatusOf } from '../../domain/transaction/transaction.decider';
import { ProviderAnsweredAfterHold, ProviderAnsweredAfterOutcome } from '../../domain/transaction/transaction.events';
import { OrderKind, OrderProduct } from '../../domain/wallet/order-product';
import { StoredOrderView } from '../ports/read-models.port';
import type { HeldOrderFollowUpResource } from './held-order-follow-up';

type AfterHold = ProviderAnsweredAfterHold['data'];
type AfterOutcome = ProviderAnsweredAfterOutcome['data'];

export interface ProviderAnswerAfterHoldResource {
  outcome: AfterHold['outcome'];
  operator_ref: string | null;
  reason: string | null;
  answered_at: string;
}

export interface ProviderAnswerAfterOutcomeResource {
  outcome: AfterOutcome['outcome'];
  operator_ref: string | null;
  reason: string | null;
  answered_at: string;
  recorded_status: AfterOutcome['recordedStatus'];
  contradicts_outcome: boolean;
}

export interface AdminOrderResource {
  order_id: string;
  partner_id: string;
  environment: Environment;
  status: TransactionStatus;
  public_status: PublicStatus;
  kind: OrderKind;
  product: OrderProduct;
  amount: string;
  currency: Currency;
  reference: string | null;
  balance_after: string;
  operator_ref: string | null;
  failure_reason: string | null;
  provider_answer_after_hold: ProviderAnswerAfterHoldResource | null;
  provider_answer_after_outcome: ProviderAnswerAfterOutcomeResource | null;
  settled_at: string | null;
  refunded_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface AdminOrderListResource {
  count: number;
  orders: (AdminOrderResource & { follow_up?: HeldOrderFollowUpResource | null })[];
}

export const adminOrderResource = (order: StoredOrderView): AdminOrderResource => ({
  order_id: order.orderId,
  partner_id: order.partnerId,
  environment: order.environment,
  status: order.status,
  public_status: publicStatusOf(order.status, order.refundedAt),
  kind: order.product.kind,
  product: order.product,
  amount: order.amount,
  currency: order.currency,
  reference: order.reference,
  balance_after: order.balanceAfter,
  operator_ref: order.operatorRef,
  failure_reason: order.failureReason,
  provider_answer_after_hold: order.lateAnswer && {
    outcome: order.lateAnswer.outcome,
    operator_ref: order.lateAnswer.operatorRef,
    reason: order.lateAnswer.reason,
    answered_at: order.lateAnswer.answeredAt,
  },
  provider_answer_after_outcome: order.answerAfterOutcome && {
    outcome: order.answerAfterOutcome.outcome,
    operator_ref: order.answerAfterOutcome.operatorRef,
    reason: order.answerAfterOutcome.reason,
    answered_at: order.answerAfterOutcome.answeredAt,
    recorded_status: order.answerAfterOutcome.recordedStatus,
    contradicts_outcome: order.answerAfterOutcome.contradicts,
  },
  settled_at: order.settledAt,
  refunded_at: order.refundedAt,
  created_at: order.createdAt,
  updated_at: order.updatedAt,
});
