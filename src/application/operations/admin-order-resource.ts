import { OrderView } from '../ports/read-models.port';
import { publicStatusOf } from '../../domain/transaction/transaction.decider';

/** What operators see of an order: the internal status too. */
export const adminOrderResource = (order: OrderView): Record<string, unknown> => ({
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
