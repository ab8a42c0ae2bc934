import { DomainEvent, EventStore, GlobalPosition, RecordedEvent } from '../../src/application/ports/event-store.port';

interface CatchUpOptions {
  /** The position already handled (a stored checkpoint); null reads from the first event. */
  from: GlobalPosition | null;
  /** Only events of these types reach the handler. */
  eventTypes?: ReadonlySet<string>;
  /** Events read per query; 100 unless given. */
  batchSize?: number;
  /** Pause between reads once caught up, when no local append wakes the reader earlier; 100 ms unless given. */
  pollIntervalMs?: number;
  /**
   * Told of failures. A failed read is retried after the poll interval; a failed handler
   * ends the subscription at the last handled position, so a restart from it retries the event.
   */
  onError?: (error: unknown) => void;
}

interface CatchUpSubscription {
  /** Ends the subscription once the handler in progress, if any, has finished. Rejects with the handler's error if one ended it. */
  stop(): Promise<void>;
  /** The position of the last event handled (or `from` until one is): the checkpoint to store. */
  readonly position: GlobalPosition | null;
}

/**
 * Reads the whole log in global order from a checkpoint, then keeps following it.
 * Events reach the handler one at a time, in order, each handler awaited before the next.
 */
export function subscribeToAll<Event extends DomainEvent>(
  store: Pick<EventStore<Event>, 'readAll' | 'subscribe'>,
  options: CatchUpOptions,
  handler: (event: RecordedEvent<Event>) => Promise<void>,
): CatchUpSubscription {
  const batchSize = options.batchSize ?? 100;
  const pollIntervalMs = options.pollIntervalMs ?? 100;
  if (!Number.isInteger(batchSize) || batchSize < 1) throw new Error('batchSize must be a positive integer');
  if (!(pollIntervalMs >= 0)) throw new Error('pollIntervalMs must not be negative');

  let position = options.from;
  let stopping = false;
  let failure: { error: unknown } | null = null;
  const alarm = new Alarm();
  const unsubscribe = store.subscribe(() => alarm.ring());

  const readOnce = async (): Promise<number> => {
    const batch = await store.readAll(position, { maxCount: batchSize, eventTypes: options.eventTypes });
    for (const event of batch) {
      if (stopping) break;
      try {
        await handler(event);
      } catch (error) {
        failure = { error };
        options.onError?.(error);
        stopping = true;
        break;
      }
      position = event.position;
    }
    return batch.length;
  };

  const run = async (): Promise<void> => {
    while (!stopping) {
      let read = 0;
      try {
        read = await readOnce();
      } catch (error) {
        options.onError?.(error);
      }
      // A full batch means more may be waiting: read on at once.
      if (!stopping && read < batchSize) await alarm.wait(pollIntervalMs);
    }
    unsubscribe();
  };

  const running = run();

  return {
    get position(): GlobalPosition | null {
      return position;
    },
    async stop(): Promise<void> {
      stopping = true;
      alarm.ring();
      await running;
      if (failure) throw failure.error;
    },
  };
}

/** A sleep that a ring ends early; a ring while nobody sleeps makes the next sleep return at once. */
class Alarm {
  private rung = false;
  private wake: (() => void) | null = null;

  ring(): void {
    this.rung = true;
    this.wake?.();
  }

  async wait(ms: number): Promise<void> {
    if (!this.rung) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, ms);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wake = null;
    }
    this.rung = false;
  }
}
