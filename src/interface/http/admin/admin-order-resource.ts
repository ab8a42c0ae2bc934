import type { HeldOrder } from '../../../application/operations/admin-queries';
import type { HeldFollowUp } from '../../../application/operations/held-order-follow-up';
import type { ResolvedOrder } from '../../../application/operations/resolve-order';
import { StoredOrderView } from '../../../application/ports/read-models.port';
import { Currency } from '../../../domain/money/currency';
import { Environment } from '../../../domain/shared/environment';
import { PublicStatus, TransactionStatus, publicStatusOf } from '../../../domain/transaction/transaction.decider';
import {
  ProviderAnswerAtResolution,
  ProviderAnsweredAfterHold,
  ProviderAnsweredAfterOutcome,
} from '../../../domain/transaction/transaction.events';
import { OrderKind, OrderProduct } from '../../../domain/wallet/order-product';

type AfterHold = ProviderAnsweredAfterHold['data'];
type AfterOutcome = ProviderAnsweredAfterOutcome['data'];

export interface ProviderAnswerAfterHoldResource {
  outcome: AfterHold['outcome'];
  operator_ref: string | null;
  reason: string | null;
  answered_at: string;
}

export interface ProviderAnswerAfterOutcomeResource extends Omit<ProviderAnswerAfterHoldResource, 'outcome'> {
  outcome: AfterOutcome['outcome'];
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

/** How a held order is being followed at its provider (decision 0117). */
export interface HeldOrderFollowUpResource {
  last_word: string | null;
  asked_at: string | null;
  next_ask_at: string | null;
  asked_until: string;
}

export interface ResolvedOrderResource extends AdminOrderResource {
  provider_answer: { word: ProviderAnswerAtResolution['word']; detail: string; asked_at: string } | null;
  against_provider: boolean;
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

export const orderListResource = (orders: readonly StoredOrderView[]): AdminOrderListResource => ({
  count: orders.length,
  orders: orders.map((order) => adminOrderResource(order)),
});

export const heldOrderListResource = (held: readonly HeldOrder[]): AdminOrderListResource => ({
  count: held.length,
  orders: held.map((order) => ({ ...adminOrderResource(order), follow_up: followUpOf(order.followUp) })),
});

const followUpOf = (followUp: HeldFollowUp | null): HeldOrderFollowUpResource | null =>
  followUp && {
    last_word: followUp.lastWord,
    asked_at: followUp.askedAt,
    next_ask_at: followUp.nextAskAt,
    asked_until: followUp.askedUntil,
  };

export const resolvedOrderResource = (order: ResolvedOrder): ResolvedOrderResource => ({
  ...adminOrderResource(order),
  provider_answer: order.providerAnswer && {
    word: order.providerAnswer.word,
    detail: order.providerAnswer.detail,
    asked_at: order.providerAnswer.askedAt,
  },
  against_provider: order.againstProvider,
});
