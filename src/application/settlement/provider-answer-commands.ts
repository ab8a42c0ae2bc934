import { TransactionCommand, TransactionState } from '../../domain/transaction/transaction.decider';
import { TransactionInitiated } from '../../domain/transaction/transaction.events';
import { ProviderNotSentError, ProviderOrder, ProviderOutcome } from '../ports/provider-gateway.port';

/** Which call gave an answer: a submission (an attempt to place the order) or a look-up. */
export type ProviderCall = 'submit' | 'poll';

/** A submission of an order already in doubt is, for an adapter that never repeats one, a look-up. */
export function askedAs(call: ProviderCall, state: TransactionState | undefined): ProviderCall {
  return call === 'submit' && state?.providerMayHaveIt !== true ? 'submit' : 'poll';
}

/** A placed order as its provider is asked about it, with what its state knows of earlier attempts. */
export const providerOrderOf = (
  orderId: string,
  order: TransactionInitiated['data'],
  state: TransactionState,
): ProviderOrder => ({
  orderId,
  amount: order.amount,
  currency: order.currency,
  product: order.product,
  placedAt: order.placedAt,
  route: order.route ?? null,
  providerReference: state.providerReference,
  resubmission: state.inDoubtSince !== null,
  inDoubtSince: state.inDoubtSince,
});

/** An unknown answer to a submission puts the order in doubt; to a look-up it is evidence. */
export function outcomeCommand(outcome: ProviderOutcome, call: ProviderCall, at: Date): TransactionCommand {
  switch (outcome.status) {
    case 'succeeded':
      return { type: 'SettleTransaction', operatorRef: outcome.operatorRef, at: at.toISOString() };
    case 'failed':
      return { type: 'FailTransaction', reason: outcome.reason, basis: outcome.basis, at: at.toISOString() };
    case 'pending':
      return { type: 'RecordSubmission', providerReference: outcome.providerReference, at: at.toISOString() };
    case 'unknown':
      return call === 'submit'
        ? { type: 'RecordAttemptInDoubt', reason: outcome.reason, at: at.toISOString() }
        : { type: 'RecordLookUp', result: outcome.reason, at: at.toISOString() };
    case 'mismatch': {
      const { transactionId, amount, currency } = outcome.upstream;
      return {
        type: 'HoldOnMismatch',
        mismatch: {
          reason: outcome.reason,
          operatorRef: outcome.operatorRef,
          transactionId,
          amount,
          currency,
          at: at.toISOString(),
          upstreamAt: outcome.upstream.at,
        },
      };
    }
  }
}

/** The command that records a call without a usable answer. */
export function unansweredCommand(error: unknown, call: ProviderCall, attempt: number, at: Date): TransactionCommand {
  const reason = error instanceof Error ? error.message : String(error);
  if (call === 'poll') return { type: 'RecordLookUp', result: `no answer: ${reason}`, at: at.toISOString() };
  return error instanceof ProviderNotSentError
    ? { type: 'RecordAttemptNotSent', attempt, reason, at: at.toISOString() }
    : { type: 'RecordAttemptInDoubt', reason, at: at.toISOString() };
}
