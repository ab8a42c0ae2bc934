import {
  AllStreamResolvedEvent,
  AllStreamSubscription,
  END,
  Filter,
  Position,
  START,
  SubscribeToAllOptions,
  excludeSystemEvents,
} from '@eventstore/db-client';
import {
  GlobalPosition,
  RecordedEvent,
  UntypedEvent,
  comparePositions,
} from '../../application/ports/event-store.port';
import { explainAllStreamError } from './eventstoredb-errors';
import { isServiceEvent, logPosition, toEsdbPosition, toRecordedEvent } from './eventstoredb-mapping';

export interface SubscribingClient {
  subscribeToAll(options: SubscribeToAllOptions): AllStreamSubscription;
}

export interface BackoffPolicy {
  initialMs: number;
  maxMs: number;
  factor: number;
  /** Spread, as a fraction of the delay: 0.2 gives ±20 %, so many clients do not reconnect in step. */
  jitter: number;
}

export const DEFAULT_BACKOFF: BackoffPolicy = { initialMs: 250, maxMs: 30_000, factor: 2, jitter: 0.2 };

/** A subscription that has stayed up this long counts as healthy, so the next drop starts the backoff over, ms. */
const DEFAULT_HEALTHY_AFTER_MS = 30_000;

export function backoffDelayMs(
  attempt: number,
  policy: BackoffPolicy = DEFAULT_BACKOFF,
  random: () => number = Math.random,
): number {
  if (!Number.isInteger(attempt) || attempt < 1) throw new RangeError('attempt counts from 1');
  const exponential = policy.initialMs * policy.factor ** Math.min(attempt - 1, 64);
  const base = Math.min(policy.maxMs, exponential);
  const spread = base * policy.jitter * (2 * random() - 1);
  return Math.round(Math.min(policy.maxMs, Math.max(0, base + spread)));
}

interface EventStoreDbSubscriptionOptions {
  /** Where to start: a position already handled (delivery starts after it), null for the first event, 'end' for new events only. */
  from: GlobalPosition | null | 'end';
  /** Server-side filter; system events ($-prefixed types) are excluded unless another filter is given. Its checkpoints are taken over. */
  filter?: Filter;
  backoff?: BackoffPolicy;
  random?: () => number;
  healthyAfterMs?: number;
  /** Told of each drop (access denied is explained: which right is missing), with the attempt number and the delay before the next try. */
  onDrop?: (error: unknown, attempt: number, delayMs: number) => void;
  onConnected?: (reconnected: boolean) => void;
}

export interface EventStoreDbSubscription {
  stop(): Promise<void>;
  readonly position: GlobalPosition | null;
}

/** A catch-up subscription to $all, one awaited event at a time; a drop re-opens after a backoff, a failing handler ends it. */
export function subscribeToAllEvents(
  client: SubscribingClient,
  options: EventStoreDbSubscriptionOptions,
  handler: (event: RecordedEvent<UntypedEvent>) => Promise<void>,
): EventStoreDbSubscription {
  const policy = options.backoff ?? DEFAULT_BACKOFF;
  const filter = options.filter ?? excludeSystemEvents();
  let position: GlobalPosition | null = options.from === 'end' ? null : options.from;
  let fromEnd = options.from === 'end';
  let stopping = false;
  let failure: { error: unknown } | null = null;
  let current: AllStreamSubscription | null = null;
  let wake: (() => void) | null = null;
  let confirmations = 0;

  const open = (): AllStreamSubscription =>
    client.subscribeToAll({
      fromPosition: position ? toEsdbPosition(position) : fromEnd ? END : START,
      filter: { ...filter, checkpointReached: passCheckpointAlong },
      resolveLinkTos: false,
    });

  const passOver = (at: GlobalPosition): void => {
    if (position && comparePositions(at, position) <= 0) return;
    position = at;
    fromEnd = false;
  };

  const consume = async (subscription: AllStreamSubscription, healthy: () => void): Promise<void> => {
    for await (const item of subscription as AsyncIterable<AllStreamResolvedEvent | FilterCheckpoint>) {
      if (stopping) return;
      healthy();
      if (item instanceof FilterCheckpoint) {
        passOver(item.position);
        continue;
      }
      const recorded = item.event;
      const at = recorded ? logPosition(recorded.position) : null;
      if (!recorded || !at || (position && comparePositions(at, position) <= 0)) continue;
      if (isServiceEvent(recorded)) {
        try {
          await handler(toRecordedEvent(recorded));
        } catch (error) {
          failure = { error };
          stopping = true;
          return;
        }
      }
      passOver(at);
    }
  };

  const run = async (): Promise<void> => {
    let attempt = 0;
    while (!stopping) {
      const subscription = open();
      current = subscription;
      // A server that confirms and drops at once must not be retried at the initial delay forever: the backoff
      // starts over only once the subscription delivers something (an event, a checkpoint, caught up) or has
      // stayed up for a while (servers before 23.10 never send caught up).
      const healthy = (): void => {
        attempt = 0;
      };
      let stayedUp: NodeJS.Timeout | undefined;
      subscription.on('confirmation', () => {
        options.onConnected?.(confirmations++ > 0);
        clearTimeout(stayedUp);
        stayedUp = setTimeout(healthy, options.healthyAfterMs ?? DEFAULT_HEALTHY_AFTER_MS);
      });
      subscription.on('caughtUp', healthy);
      let dropped: unknown = null;
      try {
        await consume(subscription, healthy);
        if (!stopping) dropped = new Error('the server ended the $all subscription');
      } catch (error) {
        dropped = explainAllStreamError(error);
      } finally {
        clearTimeout(stayedUp);
        current = null;
        await close(subscription);
      }
      if (stopping || dropped === null) break;
      attempt++;
      const delayMs = backoffDelayMs(attempt, policy, options.random);
      options.onDrop?.(dropped, attempt, delayMs);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, delayMs);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = null;
    }
  };

  const running = run();

  return {
    get position(): GlobalPosition | null {
      return position;
    },
    async stop(): Promise<void> {
      stopping = true;
      const wakeUp: (() => void) | null = wake;
      if (wakeUp) wakeUp();
      if (current) await close(current);
      await running;
      if (failure) throw failure.error;
    },
  };
}

/** A filter checkpoint, pushed into the same stream as the events so that it reaches the consumer after those sent before it. */
class FilterCheckpoint {
  constructor(readonly position: GlobalPosition) {}
}

function passCheckpointAlong(subscription: AllStreamSubscription, at: Position): void {
  const position = logPosition(at);
  if (position && !subscription.destroyed) subscription.push(new FilterCheckpoint(position));
}

async function close(subscription: AllStreamSubscription): Promise<void> {
  // A late error from the cancelled call must not become an unhandled 'error' event.
  subscription.on('error', () => undefined);
  try {
    await subscription.unsubscribe();
  } catch {
    // Already closed.
  }
  subscription.destroy();
}
