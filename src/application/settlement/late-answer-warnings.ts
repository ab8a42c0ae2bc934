import { TransactionState } from '../../domain/transaction/transaction.decider';
import { TransactionEvent } from '../../domain/transaction/transaction.events';

/** A provider answer after an outcome changes no status: finance has to act on it. A held order it ends is told. */
export function lateAnswerWarnings(events: readonly TransactionEvent[], state: TransactionState): string[] {
  const warnings: string[] = [];
  for (const event of events) {
    if (
      (event.type === 'TransactionSettled' || event.type === 'TransactionFailed') &&
      !event.data.resolvedBy &&
      state.heldAt
    ) {
      warnings.push(
        `order ${event.data.orderId}: held since ${state.heldAt}, ended by the provider's word: ${event.type === 'TransactionSettled' ? 'succeeded' : `failed (${event.data.reason}), refunded`}`,
      );
    }
    if (event.type === 'TransactionSuccessMismatched') {
      const { orderId, reason } = event.data;
      warnings.push(
        `order ${orderId}: held, the provider's success does not match it: ${reason}; finance has a finding`,
      );
    }
    if (event.type === 'TransactionFailureWithheld') {
      const { orderId, reason } = event.data;
      warnings.push(
        `order ${orderId}: not failed on "${reason}": an earlier attempt may have reached the provider, so only its record of the order (or its confirmed absence) may fail it`,
      );
    }
    if (event.type === 'ProviderAnsweredAfterHold') {
      const { orderId, outcome, answeredAt } = event.data;
      warnings.push(
        `order ${orderId}: the provider answered ${outcome} at ${answeredAt}, after the order was held; resolve it accordingly`,
      );
    }
    if (event.type === 'ProviderAnsweredAfterOutcome') {
      const { orderId, outcome, answeredAt, recordedStatus, contradicts } = event.data;
      const verdict = contradicts
        ? 'contradicting the recorded outcome: finance must reconcile it'
        : 'after a manual resolution, which it confirms';
      warnings.push(
        `order ${orderId}: the provider answered ${outcome} at ${answeredAt} although the order is ${recordedStatus}, ${verdict}`,
      );
    }
  }
  return warnings;
}
