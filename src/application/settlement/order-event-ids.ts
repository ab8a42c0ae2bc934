import { TransactionEvent } from '../../domain/transaction/transaction.events';

/**
 * What an event's id is derived from: an order has one outcome and one of each step, and the
 * evidence of its attempts and look-ups is one event per attempt (by run number) or moment.
 */
export function eventIdParts(event: TransactionEvent): string[] {
  switch (event.type) {
    case 'TransactionSettled':
    case 'TransactionFailed':
      return ['outcome'];
    case 'TransactionAttemptNotSent':
      return [event.type, String(event.data.attempt)];
    case 'TransactionAttemptInDoubt':
    case 'TransactionLookedUp':
    case 'TransactionFailureWithheld':
      return [event.type, event.data.at];
    default:
      return [event.type];
  }
}
