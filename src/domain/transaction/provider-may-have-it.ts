import { TransactionEvent } from './transaction.events';

type ReachingEvent = Extract<TransactionEvent, { type: 'TransactionSubmitted' | 'TransactionAttemptInDoubt' }>;

/**
 * Whether the event tells that the provider may hold the order from then on: it acknowledged the order
 * (submitted), or an attempt may have reached it without anything telling how it ended (in doubt).
 */
export const mayHaveReachedProvider = <Event extends { type: string }>(
  event: Event,
): event is Extract<Event, { type: ReachingEvent['type'] }> =>
  event.type === 'TransactionSubmitted' || event.type === 'TransactionAttemptInDoubt';
