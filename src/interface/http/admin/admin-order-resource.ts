import type { HeldOrder } from '../../../application/operations/admin-queries';
import type { HeldFollowUp } from '../../../application/operations/held-order-follow-up';
import type { ResolvedOrder } from '../../../application/operations/resolve-order';
import { StoredOrderView } from '../../../application/ports/read-models.port';
import { publicStatusOf } from '../../../domain/transaction/transaction.decider';

export const adminOrderResource = (order: StoredOrderView) => ({
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

export const orderListResource = (orders: readonly StoredOrderView[]) => ({
  count: orders.length,
  orders: orders.map((order) => adminOrderResource(order)),
});

export const heldOrderListResource = (held: readonly HeldOrder[]) => ({
  count: held.length,
  orders: held.map((order) => ({ ...adminOrderResource(order), follow_up: followUpOf(order.followUp) })),
});

/** How a held order is being followed at its provider (decision 0117). */
const followUpOf = (followUp: HeldFollowUp | null) =>
  followUp && {
    last_word: followUp.lastWord,
    asked_at: followUp.askedAt,
    next_ask_at: followUp.nextAskAt,
    asked_until: followUp.askedUntil,
  };

export const resolvedOrderResource = (order: ResolvedOrder) => ({
  ...adminOrderResource(order),
  provider_answer: order.providerAnswer && {
    word: order.providerAnswer.word,
    detail: order.providerAnswer.detail,
    asked_at: order.providerAnswer.askedAt,
  },
  against_provider: order.againstProvider,
});
