import { Actor } from '../shared/actor';
import { Decider, Decision, accept, refuse } from '../shared/decider';
import { domainError } from '../shared/domain-error';
import {
  FailureBasis,
  ProviderAnsweredAfterHold,
  ProviderAnsweredAfterOutcome,
  TransactionEvent,
  TransactionInitiated,
  isAttemptFailure,
} from './transaction.events';

/** Internal lifecycle. Partners see INITIATED, PENDING and DISPUTED as PENDING. */
export type TransactionStatus = 'NONE' | 'INITIATED' | 'PENDING' | 'DISPUTED' | 'SUCCESS' | 'FAILED';

export interface TransactionState {
  status: TransactionStatus;
  order: TransactionInitiated['data'] | null;
  /** Why it failed, and the operator who decided it when it was a manual resolution. */
  failure: { reason: string; resolvedBy: Actor | null } | null;
  /** The provider's final answer if it came after the order was held (the first one only). */
  lateAnswer: ProviderAnsweredAfterHold['data'] | null;
  /** The provider's own id of the order, once it said it took the order and has not decided yet. */
  providerReference: string | null;
  /** Whether an operator decided the outcome (SUCCESS or FAILED by a manual resolution). */
  resolvedManually: boolean;
  /** The provider's first final answer after the outcome, when recorded (see ProviderAnsweredAfterOutcome). */
  answerAfterOutcome: ProviderAnsweredAfterOutcome['data'] | null;
  /** When an attempt first may have reached the provider without anything telling how it ended; null: none in doubt. */
  inDoubtSince: string | null;
  /** The provider may hold the order: it acknowledged it (submitted) or an attempt is in doubt. */
  providerMayHaveIt: boolean;
  /** The number of the last submission run that sent nothing (see TransactionAttemptNotSent). */
  notSentAttempt: number | null;
}

export type TransactionCommand =
  | { type: 'InitiateTransaction'; order: TransactionInitiated['data'] }
  | { type: 'RecordSubmission'; providerReference: string | null; at: string }
  | { type: 'SettleTransaction'; operatorRef: string; at: string }
  | { type: 'FailTransaction'; reason: string; basis: FailureBasis; at: string }
  | { type: 'RecordAttemptInDoubt'; reason: string; at: string }
  | { type: 'RecordAttemptNotSent'; attempt: number; reason: string; at: string }
  | { type: 'RecordLookUp'; result: string; at: string }
  | { type: 'DisputeTransaction'; reason: string; at: string }
  | { type: 'ResolveTransaction'; outcome: 'success' | 'failed'; reason: string; operator: Actor; at: string };

/** States in which the provider's word still decides. A held (DISPUTED) order waits for an operator. */
const OPEN: ReadonlySet<TransactionStatus> = new Set(['INITIATED', 'PENDING']);

const invalid = (detail: string): Decision<TransactionEvent> => refuse(domainError('invalid_state', detail));

function decide(command: TransactionCommand, state: TransactionState): Decision<TransactionEvent> {
  if (command.type === 'InitiateTransaction') {
    if (state.status !== 'NONE') return accept();
    return accept({ type: 'TransactionInitiated', data: command.order });
  }
  const order = state.order;
  if (!order) return refuse(domainError('not_found', 'the order does not exist'));
  const orderId = order.orderId;

  switch (command.type) {
    case 'RecordSubmission':
      if (state.status !== 'INITIATED') return accept();
      return accept({
        type: 'TransactionSubmitted',
        data: { orderId, providerReference: command.providerReference, submittedAt: command.at },
      });
    case 'SettleTransaction':
      if (state.status === 'SUCCESS' || state.status === 'FAILED')
        return answerAfterOutcome(state, {
          orderId,
          outcome: 'succeeded',
          operatorRef: command.operatorRef,
          reason: null,
          answeredAt: command.at,
        });
      if (state.status === 'DISPUTED')
        return lateAnswer(state, {
          orderId,
          outcome: 'succeeded',
          operatorRef: command.operatorRef,
          reason: null,
          answeredAt: command.at,
        });
      if (!OPEN.has(state.status)) return invalid(`order ${orderId} is ${state.status} and cannot succeed`);
      return accept({
        type: 'TransactionSettled',
        data: { orderId, operatorRef: command.operatorRef, settledAt: command.at, resolvedBy: null, reason: null },
      });
    case 'FailTransaction': {
      // A failure of one attempt says nothing of an earlier one that may have reached the provider.
      const attemptBasis = isAttemptFailure(command.basis) ? command.basis : null;
      if (state.status === 'SUCCESS' || state.status === 'FAILED') {
        if (attemptBasis) return accept();
        return answerAfterOutcome(state, {
          orderId,
          outcome: 'failed',
          operatorRef: null,
          reason: command.reason,
          answeredAt: command.at,
        });
      }
      if (attemptBasis && state.providerMayHaveIt && (OPEN.has(state.status) || state.status === 'DISPUTED'))
        return accept({
          type: 'TransactionFailureWithheld',
          data: { orderId, reason: command.reason, basis: attemptBasis, at: command.at },
        });
      if (state.status === 'DISPUTED')
        return lateAnswer(state, {
          orderId,
          outcome: 'failed',
          operatorRef: null,
          reason: command.reason,
          answeredAt: command.at,
        });
      if (!OPEN.has(state.status)) return invalid(`order ${orderId} is ${state.status} and cannot fail`);
      return accept({
        type: 'TransactionFailed',
        data: { orderId, reason: command.reason, failedAt: command.at, resolvedBy: null, basis: command.basis },
      });
    }
    case 'RecordAttemptInDoubt':
      if (!OPEN.has(state.status)) return accept();
      return accept({ type: 'TransactionAttemptInDoubt', data: { orderId, reason: command.reason, at: command.at } });
    case 'RecordAttemptNotSent':
      if (!OPEN.has(state.status)) return accept();
      return accept({
        type: 'TransactionAttemptNotSent',
        data: { orderId, attempt: command.attempt, reason: command.reason, at: command.at },
      });
    case 'RecordLookUp':
      // Routine look-ups are not recorded; those of an order the provider may have are evidence for a hold.
      if (!OPEN.has(state.status) || !state.providerMayHaveIt) return accept();
      return accept({ type: 'TransactionLookedUp', data: { orderId, result: command.result, at: command.at } });
    case 'DisputeTransaction':
      if (state.status !== 'INITIATED' && state.status !== 'PENDING') return accept();
      return accept({ type: 'TransactionDisputed', data: { orderId, reason: command.reason, disputedAt: command.at } });
    case 'ResolveTransaction':
      if (state.status !== 'DISPUTED') return invalid(`order ${orderId} is not held for manual resolution`);
      if (command.outcome === 'failed' && state.lateAnswer?.outcome === 'succeeded') {
        const { operatorRef, answeredAt } = state.lateAnswer;
        return invalid(
          `order ${orderId} cannot be failed and refunded: the provider answered that it succeeded (operator_ref ${operatorRef}) at ${answeredAt}, after it was held; resolve it as success`,
        );
      }
      return command.outcome === 'success'
        ? accept({
            type: 'TransactionSettled',
            data: {
              orderId,
              operatorRef: `manual-${orderId}`,
              settledAt: command.at,
              resolvedBy: command.operator,
              reason: command.reason,
            },
          })
        : accept({
            type: 'TransactionFailed',
            data: { orderId, reason: command.reason, failedAt: command.at, resolvedBy: command.operator },
          });
  }
}

/** A held order's first late answer is recorded; it changes no status. Later ones add nothing. */
function lateAnswer(state: TransactionState, answer: ProviderAnsweredAfterHold['data']): Decision<TransactionEvent> {
  if (state.lateAnswer) return accept();
  return accept({ type: 'ProviderAnsweredAfterHold', data: answer });
}

/**
 * A final answer once the order has its outcome. A repeat of the provider's own answer is a
 * duplicate and adds nothing; an answer that contradicts the outcome, or any answer after an
 * operator's decision, is recorded once (the first), for finance. No status changes.
 */
function answerAfterOutcome(
  state: TransactionState,
  answer: Omit<ProviderAnsweredAfterOutcome['data'], 'recordedStatus' | 'contradicts'>,
): Decision<TransactionEvent> {
  const recordedStatus = state.status === 'SUCCESS' ? 'SUCCESS' : 'FAILED';
  const contradicts = (answer.outcome === 'succeeded') !== (recordedStatus === 'SUCCESS');
  if (state.answerAfterOutcome || (!contradicts && !state.resolvedManually)) return accept();
  return accept({ type: 'ProviderAnsweredAfterOutcome', data: { ...answer, recordedStatus, contradicts } });
}

function evolve(state: TransactionState, event: TransactionEvent): TransactionState {
  switch (event.type) {
    case 'TransactionInitiated':
      return {
        status: 'INITIATED',
        order: event.data,
        failure: null,
        lateAnswer: null,
        providerReference: null,
        resolvedManually: false,
        answerAfterOutcome: null,
        inDoubtSince: null,
        providerMayHaveIt: false,
        notSentAttempt: null,
      };
    case 'TransactionSubmitted':
      return {
        ...state,
        status: 'PENDING',
        providerReference: event.data.providerReference,
        providerMayHaveIt: true,
      };
    case 'TransactionSettled':
      return { ...state, status: 'SUCCESS', resolvedManually: Boolean(event.data.resolvedBy) };
    case 'TransactionFailed':
      return {
        ...state,
        status: 'FAILED',
        failure: { reason: event.data.reason, resolvedBy: event.data.resolvedBy },
        resolvedManually: Boolean(event.data.resolvedBy),
      };
    case 'TransactionDisputed':
      return { ...state, status: 'DISPUTED' };
    case 'ProviderAnsweredAfterHold':
      return { ...state, lateAnswer: event.data };
    case 'ProviderAnsweredAfterOutcome':
      return { ...state, answerAfterOutcome: event.data };
    case 'TransactionAttemptInDoubt':
      return { ...state, inDoubtSince: state.inDoubtSince ?? event.data.at, providerMayHaveIt: true };
    case 'TransactionAttemptNotSent':
      return { ...state, notSentAttempt: event.data.attempt };
    case 'TransactionLookedUp':
    case 'TransactionFailureWithheld':
      return state;
  }
}

export const transactionDecider: Decider<TransactionState, TransactionCommand, TransactionEvent> = {
  initialState: {
    status: 'NONE',
    order: null,
    failure: null,
    lateAnswer: null,
    providerReference: null,
    resolvedManually: false,
    answerAfterOutcome: null,
    inDoubtSince: null,
    providerMayHaveIt: false,
    notSentAttempt: null,
  },
  decide,
  evolve,
};

export type PublicStatus = 'PENDING' | 'SUCCESS' | 'FAILED';

/**
 * The only states a partner ever sees. FAILED means "failed and refunded" (the interface
 * sets `refunded_at` with it): a failed order whose refund is not booked yet is still PENDING.
 */
export const publicStatusOf = (status: TransactionStatus, refundedAt: string | null): PublicStatus =>
  status === 'SUCCESS' ? 'SUCCESS' : status === 'FAILED' && refundedAt !== null ? 'FAILED' : 'PENDING';
