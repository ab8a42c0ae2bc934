import { EventLogDiagnostics } from '../../application/ports/event-log-diagnostics.port';
import { EventStore, GlobalPosition } from '../../application/ports/event-store.port';
import { ProjectionBarrier } from '../../application/ports/read-models.port';
import { Projector } from './projector';

class ReadModelLagError extends Error {
  constructor(position: GlobalPosition, timeoutMs: number) {
    super(`read models did not reach position ${position.commit}/${position.prepare} within ${timeoutMs} ms`);
    this.name = 'ReadModelLagError';
  }
}

interface Waiter {
  position: GlobalPosition;
  deadline: number;
  timeoutMs: number;
  resolve(reached: boolean): void;
  reject(error: unknown): void;
}

/** Longest pause between two tries while waiters wait for events that are not readable yet. */
const MAX_PAUSE_MS = 5;

/** Runs after appends start at most one per `gatherMs`, so under load one run and commit serves many requests; the barrier never waits. */
interface RunSpacing {
  gatherMs: number;
  now(): number;
  wait(ms: number): Promise<void>;
}

export const realTimeSpacing = (gatherMs: number): RunSpacing => ({
  gatherMs,
  now: () => performance.now(),
  wait: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
});

/** Keeps the projectors caught up after local appends and on a poll; also the API's read-your-writes barrier. */
export class ProjectionDaemon implements ProjectionBarrier {
  private timer: NodeJS.Timeout | null = null;
  private unsubscribe: (() => void) | null = null;
  private stopped = false;
  private jobsListener: (() => void) | null = null;
  private jobsScheduled = false;
  private waiters: Waiter[] = [];
  private pumping = false;
  private kicked = false;
  private kickAgain = false;
  private refreshNext = false;
  private pollNext = false;
  private lastRunStartedAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly readModels: readonly Projector[],
    private readonly reactions: readonly Projector[],
    private readonly store: Pick<EventStore, 'readAll' | 'subscribe'>,
    private readonly diagnostics: Pick<EventLogDiagnostics, 'countEvents'>,
    private readonly pollIntervalMs: number,
    private readonly onError: (error: unknown) => void,
    private readonly spacing: RunSpacing = realTimeSpacing(0),
  ) {}

  /** Loads the checkpoints; with `follow` the projectors also run after every local append and on the poll. */
  async start(options: { follow: boolean } = { follow: true }): Promise<void> {
    for (const projector of this.all()) await projector.start();
    if (!options.follow) return;
    // A local append needs only the new events; the poll also looks at the stored checkpoints (another process, a reset).
    this.unsubscribe = this.store.subscribe(() => this.kick(false));
    if (this.pollIntervalMs > 0) this.timer = setInterval(() => this.kick('poll'), this.pollIntervalMs);
    this.kick(true);
  }

  nudge(): void {
    this.kick(false);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.unsubscribe?.();
    await this.catchUpAll().catch(() => undefined);
  }

  /** Called after the reactions scheduled jobs, so the job worker need not wait for its poll (and is not asked to look when they scheduled none). */
  onJobsScheduled(listener: () => void): void {
    this.jobsListener = listener;
  }

  /** Told by a reactions projector that a batch it committed scheduled jobs. */
  noteJobsScheduled(): void {
    this.jobsScheduled = true;
  }

  async catchUpAll(refresh = true): Promise<number> {
    if (refresh) for (const projector of this.all()) projector.refreshPosition();
    let total = 0;
    for (const projector of this.readModels) total += await projector.catchUp();
    let reacted = 0;
    for (const projector of this.reactions) reacted += await projector.catchUp();
    if (this.jobsScheduled) {
      this.jobsScheduled = false;
      this.jobsListener?.();
    }
    return total + reacted;
  }

  /** Resolves once every read model has applied `position`; waiters share one loop that retries until the event is readable. */
  waitFor(position: GlobalPosition | null, timeoutMs = 10_000): Promise<boolean> {
    if (!position || this.reached(position)) return Promise.resolve(true);
    return new Promise<boolean>((resolve, reject) => {
      this.waiters.push({ position, deadline: Date.now() + timeoutMs, timeoutMs, resolve, reject });
      void this.pump();
    });
  }

  private reached(position: GlobalPosition): boolean {
    return this.readModels.every((projector) => projector.hasReached(position));
  }

  private async pump(): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    let pause = 0;
    try {
      while (this.waiters.length > 0) {
        const before = this.waiters.length;
        let applied = 0;
        try {
          for (const projector of this.readModels) applied += await projector.catchUp();
        } catch (error) {
          for (const waiter of this.waiters.splice(0)) waiter.reject(error);
          break;
        }
        const now = Date.now();
        this.waiters = this.waiters.filter((waiter) => {
          if (this.reached(waiter.position)) waiter.resolve(true);
          else if (now > waiter.deadline) {
            this.onError(new ReadModelLagError(waiter.position, waiter.timeoutMs));
            waiter.resolve(false);
          } else return true;
          return false;
        });
        if (this.waiters.length === 0) break;
        // Events came in while this run was applying: the next run goes at once. A pause only
        // while nothing new is readable (an older transaction still open, another process at work).
        pause = applied > 0 || this.waiters.length < before ? 0 : Math.min(pause + 1, MAX_PAUSE_MS);
        await new Promise((resolve) => (pause === 0 ? setImmediate(resolve) : setTimeout(resolve, pause)));
      }
    } finally {
      this.pumping = false;
    }
    // A waiter that came in as the loop ended is not left alone.
    if (this.waiters.length > 0) void this.pump();
  }

  /** Events each projector has still to apply (read-model groups and reactions), from the stored checkpoints, whichever thread or process moves them. */
  async lag(): Promise<{ name: string; events: number }[]> {
    const result: { name: string; events: number }[] = [];
    for (const projector of this.all()) {
      result.push({
        name: projector.name,
        events: await this.diagnostics.countEvents(await projector.storedPosition()),
      });
    }
    return result;
  }

  async readModelLagSeconds(now: Date): Promise<number> {
    const lags = (await this.lagSeconds(now)).filter((lag) =>
      this.readModels.some((projector) => projector.name === lag.name),
    );
    return Math.max(0, ...lags.map((lag) => lag.seconds));
  }

  async lagSeconds(now: Date): Promise<{ name: string; seconds: number }[]> {
    const result: { name: string; seconds: number }[] = [];
    for (const projector of this.all()) {
      const [next] = await this.store.readAll(await projector.storedPosition(), { maxCount: 1 });
      result.push({
        name: projector.name,
        seconds: next ? Math.max(0, (now.getTime() - Date.parse(next.recordedAt)) / 1000) : 0,
      });
    }
    return result;
  }

  /**
   * Starts a catch-up, or asks for one more after the run in progress: a kick must not wait on a run that under load
   * never ends. `true` reads every stored checkpoint first; a poll's only those no batch has confirmed since.
   */
  private kick(refresh: boolean | 'poll'): void {
    if (this.stopped) return;
    this.refreshNext ||= refresh === true;
    this.pollNext ||= refresh === 'poll';
    if (this.kicked) {
      this.kickAgain = true;
      return;
    }
    this.kicked = true;
    void (async () => {
      try {
        do {
          await this.gather();
          if (this.stopped) break;
          this.kickAgain = false;
          const refreshNow = this.refreshNext;
          this.refreshNext = false;
          if (this.pollNext && !refreshNow) for (const projector of this.all()) projector.refreshOnPoll();
          this.pollNext = false;
          this.lastRunStartedAt = this.spacing.now();
          await this.catchUpAll(refreshNow).catch((error: unknown) => this.onError(error));
        } while (this.kickAgain && !this.stopped);
      } finally {
        this.kicked = false;
      }
    })();
  }

  /** Waits out the rest of the gathering time since the previous run started (see RunSpacing). */
  private async gather(): Promise<void> {
    const rest = this.lastRunStartedAt + this.spacing.gatherMs - this.spacing.now();
    if (rest > 0) await this.spacing.wait(rest);
  }

  private all(): Projector[] {
    return [...this.readModels, ...this.reactions];
  }
}
