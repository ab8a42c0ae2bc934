import { EventEmitter } from 'node:events';
import { EventStoreDbOptions } from './eventstoredb-client';
import { EventStoreDbSubscription, SubscribingClient, subscribeToAllEvents } from './eventstoredb-subscription';

type WatcherOptions = Pick<EventStoreDbOptions, 'watchRemoteAppends' | 'subscriptionBackoff' | 'onWarning'>;

/** Wakes the store's subscribers: at once for local appends, and through a $all subscription for other processes' (once per burst). */
export class EventStoreDbAppendWatcher {
  private readonly appended = new EventEmitter();
  private watcher: EventStoreDbSubscription | null = null;
  private watcherStopping: Promise<void> = Promise.resolve();
  private notifyScheduled = false;
  private closed = false;

  constructor(
    private readonly client: SubscribingClient,
    private readonly options: WatcherOptions,
  ) {
    this.appended.setMaxListeners(0);
  }

  subscribe(listener: () => void): () => void {
    this.appended.on('appended', listener);
    this.startWatcher();
    return () => {
      this.appended.off('appended', listener);
      if (this.appended.listenerCount('appended') === 0) this.stopWatcher();
    };
  }

  appendedHere(): void {
    this.appended.emit('appended');
  }

  async close(): Promise<void> {
    this.closed = true;
    this.stopWatcher();
    await this.watcherStopping;
    this.appended.removeAllListeners();
  }

  private startWatcher(): void {
    if (!this.options.watchRemoteAppends || this.closed || this.watcher) return;
    this.watcher = subscribeToAllEvents(
      this.client,
      {
        from: 'end',
        backoff: this.options.subscriptionBackoff,
        onDrop: (error, attempt, delayMs) =>
          this.options.onWarning?.(
            `$all subscription dropped (attempt ${attempt}); reconnecting in ${delayMs} ms`,
            error,
          ),
        // Appends made while it was down were missed: wake the listeners once.
        onConnected: (reconnected) => {
          if (reconnected) this.notifySoon();
        },
      },
      async () => this.notifySoon(),
    );
  }

  private stopWatcher(): void {
    const watcher = this.watcher;
    if (!watcher) return;
    this.watcher = null;
    const previous = this.watcherStopping;
    this.watcherStopping = Promise.all([
      previous,
      watcher.stop().catch((error: unknown) => this.options.onWarning?.('$all subscription failed', error)),
    ]).then(() => undefined);
  }

  /** Remote appends arrive one event at a time; listeners are woken once per burst. */
  private notifySoon(): void {
    if (this.notifyScheduled || this.closed) return;
    this.notifyScheduled = true;
    setImmediate(() => {
      this.notifyScheduled = false;
      if (!this.closed) this.appended.emit('appended');
    });
  }
}
