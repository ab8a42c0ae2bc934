import { Actor } from '../shared/actor';
import { Decider, Decision, accept, refuse } from '../shared/decider';
import { domainError } from '../shared/domain-error';
import {
  FailureBasis,
  ProviderAnswerAtResolution,
  ProviderAnsweredAfterHold,
  ProviderAnsweredAfterOutcome,
  TransactionEvent,
  TransactionInitiated,
  TransactionSuccessMismatched,
  isAttemptFailure,
} from './transaction.events';
import { mayHaveReachedProvider } from './provider-may-have-it';

/** Internal lifecycle. Partners see INITIATED, PENDING and DISPUTED as PENDING. */
export type TransactionStatus = 'NONE' | 'INITIATED' | 'PENDING' | 'DISPUTED' | 'SUCCESS' | 'FAILED';

export interface TransactionState {
  status: TransactionStatus;
  order: TransactionInitiated['data'] | null;
  /** Why it failed, and the operator who decided it when it was a manual resolution. */
  failure: { reason: string; resolvedBy: Actor | null } | null;
  /** The provider's final answer if it came after the order was held (logs written before held orders were followed). */
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
  /** When the order was held (DISPUTED); its follow-up look-ups are timed from then. */
  heldAt: string | null;
  /** The provider's first success that did not match the order (see TransactionSuccessMismatched). */
  mismatch: TransactionSuccessMismatched['data'] | null;
  /**
   * The evidence recorded (in doubt, not sent, looked up, failure withheld), one per kind and run or moment: the
   * same command again adds nothing, whichever store holds the log and however late the repeat comes.
   */
  evidence: ReadonlySet<string>;
}

export type TransactionCommand =
  | { type: 'InitiateTransaction'; order: TransactionInitiated['data'] }
  | { type: 'RecordSubmission'; providerReference: string | null; at: string }
  | { type: 'SettleTransaction'; operatorRef: string; at: string }
  | { type: 'FailTransaction'; reason: string; basis: FailureBasis; at: string }
  | { type: 'RecordAttemptInDoubt'; reason: string; at: string }
  | { type: 'RecordAttemptNotSent'; attempt: number; reason: string; at: string }
  | { type: 'RecordLookUp'; result: string; at: string }
  | { type: 'HoldOnMismatch'; mismatch: Omit<TransactionSuccessMismatched['data'], 'orderId'> }
  | { type: 'HoldTransaction'; reason: string; at: string }
  | {
      type: 'ResolveTransaction';
      outcome: 'success' | 'failed';
      reason: string;
      operator: Actor;
      at: string;
      /** What the provider answered when asked at the moment of resolving (live orders). */
      providerAnswer?: ProviderAnswerAtResolution;
      /** Resolved against that answer, by an owner (decision 0118). */
      againstProvider?: boolean;
    };

/** States in which the order is still being followed at its provider without a person's attention. */
const OPEN: ReadonlySet<TransactionStatus> = new Set(['INITIATED', 'PENDING']);

/**
 * States in which the provider's definitive word still decides the order: open, or held for a person (a hold
 * means "a person should look", not "stop asking": decision 0117).
 */
const UNDECIDED: ReadonlySet<TransactionStatus> = new Set(['INITIATED', 'PENDING', 'DISPUTED']);

/** Whether the order is still followed at its provider without a person's attention (not held, no outcome). */
export const isOpen = (status: TransactionStatus): boolean => OPEN.has(status);

/** Whether the order has no outcome yet (open, or held). */
export const isUndecided = (status: TransactionStatus): boolean => UNDECIDED.has(status);

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
      // A held order the provider still processes: the answer is the evidence of this look-up (or its first hand-over).
      if (state.status === 'DISPUTED' && state.providerMayHaveIt)
        return evidence(state, {
          type: 'TransactionLookedUp',
          data: { orderId, result: stillProcessing(command.providerReference), at: command.at },
        });
      if (state.status !== 'INITIATED' && state.status !== 'DISPUTED') return accept();
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
      if (!UNDECIDED.has(state.status)) return invalid(`order ${orderId} is ${state.status} and cannot succeed`);
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
      if (attemptBasis && state.providerMayHaveIt && UNDECIDED.has(state.status))
        return evidence(state, {
          type: 'TransactionFailureWithheld',
          data: { orderId, reason: command.reason, basis: attemptBasis, at: command.at },
        });
      if (!UNDECIDED.has(state.status)) return invalid(`order ${orderId} is ${state.status} and cannot fail`);
      return accept({
        type: 'TransactionFailed',
        data: { orderId, reason: command.reason, failedAt: command.at, resolvedBy: null, basis: command.basis },
      });
    }
    case 'RecordAttemptInDoubt':
      if (!UNDECIDED.has(state.status)) return accept();
      return evidence(state, {
        type: 'TransactionAttemptInDoubt',
        data: { orderId, reason: command.reason, at: command.at },
      });
    case 'RecordAttemptNotSent':
      if (!UNDECIDED.has(state.status)) return accept();
      return evidence(state, {
        type: 'TransactionAttemptNotSent',
        data: { orderId, attempt: command.attempt, reason: command.reason, at: command.at },
      });
    case 'RecordLookUp':
      // Routine look-ups are not recorded; those of a held order, or of one the provider may have, are evidence.
      if (state.status !== 'DISPUTED' && (!OPEN.has(state.status) || !state.providerMayHaveIt)) return accept();
      return evidence(state, {
        type: 'TransactionLookedUp',
        data: { orderId, result: command.result, at: command.at },
      });
    case 'HoldTransaction':
      if (!OPEN.has(state.status)) return accept();
      return accept({ type: 'TransactionDisputed', data: { orderId, reason: command.reason, disputedAt: command.at } });
    case 'HoldOnMismatch': {
      const mismatch: TransactionEvent = {
        type: 'TransactionSuccessMismatched',
        data: { orderId, ...command.mismatch },
      };
      if (!UNDECIDED.has(state.status))
        return answerAfterOutcome(state, {
          orderId,
          outcome: 'succeeded',
          operatorRef: command.mismatch.operatorRef,
          reason: command.mismatch.reason,
          answeredAt: command.mismatch.at,
        });
      if (state.mismatch) return accept();
      if (state.status === 'DISPUTED') return accept(mismatch);
      const hold: TransactionEvent = {
        type: 'TransactionDisputed',
        data: {
          orderId,
          reason: `the provider's success does not match the order: ${command.mismatch.reason}`,
          disputedAt: command.mismatch.at,
        },
      };
      return accept<TransactionEvent>(mismatch, hold);
    }
    case 'ResolveTransaction':
      if (state.status !== 'DISPUTED') return invalid(`order ${orderId} is not held for manual resolution`);
      if (command.outcome === 'failed' && state.lateAnswer?.outcome === 'succeeded') {
        const { operatorRef, answeredAt } = state.lateAnswer;
        return invalid(
          `order ${orderId} cannot be failed and refunded: the provider answered that it succeeded (operator_ref ${operatorRef}) at ${answeredAt}, after it was held; resolve it as success`,
        );
      }
      {
        const asked = {
          ...(command.providerAnswer ? { providerAnswer: command.providerAnswer } : {}),
          ...(command.againstProvider ? { againstProvider: true } : {}),
        };
        return command.outcome === 'success'
          ? accept({
              type: 'TransactionSettled',
              data: {
                orderId,
                operatorRef: `manual-${orderId}`,
                settledAt: command.at,
                resolvedBy: command.operator,
                reason: command.reason,
                ...asked,
              },
            })
          : accept({
              type: 'TransactionFailed',
              data: { orderId, reason: command.reason, failedAt: command.at, resolvedBy: command.operator, ...asked },
            });
      }
  }
}

type EvidenceEvent = Extract<
  TransactionEvent,
  {
    type:
      'TransactionAttemptInDoubt' | 'TransactionAttemptNotSent' | 'TransactionLookedUp' | 'TransactionFailureWithheld';
  }
>;

/**
 * Evidence is one event per kind and submission run or moment, as its event id is (order-event-ids.ts): a command
 * repeated for the same run or moment adds nothing.
 */
const evidenceKey = (event: EvidenceEvent): string =>
  event.type === 'TransactionAttemptNotSent' ? `${event.type} ${event.data.attempt}` : `${event.type} ${event.data.at}`;

function evidence(state: TransactionState, event: EvidenceEvent): Decision<TransactionEvent> {
  return state.evidence.has(evidenceKey(event)) ? accept() : accept(event);
}

const withEvidence = (state: TransactionState, event: EvidenceEvent): TransactionState => ({
  ...state,
  evidence: new Set([...state.evidence, evidenceKey(event)]),
});

const stillProcessing = (reference: string | null): string =>
  `the provider is still processing it${reference ? ` (its reference ${reference})` : ''}`;

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
  const next = evolveFacts(state, event);
  return mayHaveReachedProvider(event) && !next.providerMayHaveIt ? { ...next, providerMayHaveIt: true } : next;
}

const initialState: TransactionState = {
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
  heldAt: null,
  mismatch: null,
  evidence: new Set(),
};

function evolveFacts(state: TransactionState, event: TransactionEvent): TransactionState {
  switch (event.type) {
    case 'TransactionInitiated':
      return { ...initialState, status: 'INITIATED', order: event.data };
    case 'TransactionSubmitted':
      return {
        ...state,
        // A held order that is handed over stays held: a person was asked to look at it.
        status: state.status === 'DISPUTED' ? 'DISPUTED' : 'PENDING',
        providerReference: event.data.providerReference,
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
      return { ...state, status: 'DISPUTED', heldAt: event.data.disputedAt };
    case 'TransactionSuccessMismatched':
      return { ...state, mismatch: state.mismatch ?? event.data };
    case 'ProviderAnsweredAfterHold':
      return { ...state, lateAnswer: event.data };
    case 'ProviderAnsweredAfterOutcome':
      return { ...state, answerAfterOutcome: event.data };
    case 'TransactionAttemptInDoubt':
      return withEvidence({ ...state, inDoubtSince: state.inDoubtSince ?? event.data.at }, event);
    case 'TransactionAttemptNotSent':
      return withEvidence({ ...state, notSentAttempt: event.data.attempt }, event);
    case 'TransactionLookedUp':
    case 'TransactionFailureWithheld':
      return withEvidence(state, event);
  }
}

export const transactionDecider: Decider<TransactionState, TransactionCommand, TransactionEvent> = {
  initialState,
  decide,
  evolve,
};

export type PublicStatus = 'PENDING' | 'SUCCESS' | 'FAILED';

/**
 * The only states a partner ever sees, by internal state, before and after the order's refund is booked. FAILED
 * means "failed and refunded" (the interface sets `refunded_at` with it): a failed order whose refund is not booked
 * yet is still PENDING. Readers that filter in SQL build their clauses from this table.
 */
export const PUBLIC_STATUS: Readonly<Record<TransactionStatus, { unrefunded: PublicStatus; refunded: PublicStatus }>> =
  {
    NONE: { unrefunded: 'PENDING', refunded: 'PENDING' },
    INITIATED: { unrefunded: 'PENDING', refunded: 'PENDING' },
    PENDING: { unrefunded: 'PENDING', refunded: 'PENDING' },
    DISPUTED: { unrefunded: 'PENDING', refunded: 'PENDING' },
    SUCCESS: { unrefunded: 'SUCCESS', refunded: 'SUCCESS' },
    FAILED: { unrefunded: 'PENDING', refunded: 'FAILED' },
  };

export const publicStatusOf = (status: TransactionStatus, refundedAt: string | null): PublicStatus =>
  PUBLIC_STATUS[status][refundedAt === null ? 'unrefunded' : 'refunded'];
