import { TransactionEvent } from './transaction.events';

/** What the provider last said of an order, and when: the newest event that records one of its answers. */
export interface LastProviderWord {
  word: string;
  at: string;
}

/** The provider's last recorded word on the order, from its events (oldest first); null when it never answered. */
export function lastProviderWordOf(events: readonly TransactionEvent[]): LastProviderWord | null {
  let last: LastProviderWord | null = null;
  for (const event of events) last = wordOf(event) ?? last;
  return last;
}

function wordOf(event: TransactionEvent): LastProviderWord | null {
  switch (event.type) {
    case 'TransactionSubmitted':
      return {
        word: `accepted, processing${event.data.providerReference ? ` (its reference ${event.data.providerReference})` : ''}`,
        at: event.data.submittedAt,
      };
    case 'TransactionAttemptInDoubt':
    case 'TransactionFailureWithheld':
      return { word: event.data.reason, at: event.data.at };
    case 'TransactionAttemptNotSent':
      return { word: `not sent: ${event.data.reason}`, at: event.data.at };
    case 'TransactionLookedUp':
      return { word: event.data.result, at: event.data.at };
    case 'TransactionSuccessMismatched':
      return { word: `succeeded, but not as placed: ${event.data.reason}`, at: event.data.at };
    case 'ProviderAnsweredAfterHold':
      return { word: event.data.reason ?? event.data.outcome, at: event.data.answeredAt };
    default:
      return null;
  }
}
