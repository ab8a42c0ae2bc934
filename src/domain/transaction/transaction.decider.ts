import { Actor } from '../shared/actor';
import { Decider, Decision, accept, refuse } from '../shared/decider';
import { domainError } from '../shared/domain-error';
import { TransactionEvent, TransactionInitiated } from './transaction.events';

/** Internal lifecycle. Partners see INITIATED, PENDING and DISPUTED as PENDING. */
export type TransactionStatus = 'NONE' | 'INITIATED' | 'PENDING' | 'DISPUTED' | 'SUCCESS' | 'FAILED';

export interface TransactionState {
  status: TransactionStatus;
  order: TransactionInitiated['data'] | null;
  /** Why it failed, and the operator who decided it when it was a manual resolution. */
  failure: { reason: string; resolvedBy: Actor | null } | null;
}

export type TransactionCommand =
  | { type: 'InitiateTransaction'; order: TransactionInitiated['data'] }
  | { type: 'RecordSubmission'; providerReference: string | null; at: string }
  | { type: 'SettleTransaction'; operatorRef: string; at: string }
  | { type: 'FailTransaction'; reason: string; at: string }
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
      return accept({ type: 'TransactionSubmitted', data: { orderId, providerReference: command.providerReference, submittedAt: command.at } });
    case 'SettleTransaction':
      if (state.status === 'SUCCESS') return accept();
      if (!OPEN.has(state.status)) return invalid(`order ${orderId} is ${state.status} and cannot succeed`);
      return accept({ type: 'TransactionSettled', data: { orderId, operatorRef: command.operatorRef, settledAt: command.at, resolvedBy: null, reason: null } });
    case 'FailTransaction':
      if (state.status === 'FAILED') return accept();
      if (!OPEN.has(state.status)) return invalid(`order ${orderId} is ${state.status} and cannot fail`);
      return accept({ type: 'TransactionFailed', data: { orderId, reason: command.reason, failedAt: command.at, resolvedBy: null } });
    case 'DisputeTransaction':
      if (state.status !== 'INITIATED' && state.status !== 'PENDING') return accept();
      return accept({ type: 'TransactionDisputed', data: { orderId, reason: command.reason, disputedAt: command.at } });
    case 'ResolveTransaction':
      if (state.status !== 'DISPUTED') return invalid(`order ${orderId} is not held for manual resolution`);
      return command.outcome === 'success'
        ? accept({
            type: 'TransactionSettled',
            data: { orderId, operatorRef: `manual-${orderId}`, settledAt: command.at, resolvedBy: command.operator, reason: command.reason },
          })
        : accept({ type: 'TransactionFailed', data: { orderId, reason: command.reason, failedAt: command.at, resolvedBy: command.operator } });
  }
}

function evolve(state: TransactionState, event: TransactionEvent): TransactionState {
  switch (event.type) {
    case 'TransactionInitiated':
      return { status: 'INITIATED', order: event.data, failure: null };
    case 'TransactionSubmitted':
      return { ...state, status: 'PENDING' };
    case 'TransactionSettled':
      return { ...state, status: 'SUCCESS' };
    case 'TransactionFailed':
      return { ...state, status: 'FAILED', failure: { reason: event.data.reason, resolvedBy: event.data.resolvedBy } };
    case 'TransactionDisputed':
      return { ...state, status: 'DISPUTED' };
  }
}

export const transactionDecider: Decider<TransactionState, TransactionCommand, TransactionEvent> = {
  initialState: { status: 'NONE', order: null, failure: null },
  decide,
  evolve,
};

/** The only states a partner ever sees. */
export const publicStatusOf = (status: TransactionStatus): 'PENDING' | 'SUCCESS' | 'FAILED' =>
  status === 'SUCCESS' ? 'SUCCESS' : status === 'FAILED' ? 'FAILED' : 'PENDING';
