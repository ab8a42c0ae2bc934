import { EventStore, GlobalPosition } from '../../application/ports/event-store.port';
import { ProjectionBarrier } from '../../application/ports/read-models.port';
import { Projector } from './projector';

export class ReadModelLagError extends Error {
  constructor(position: GlobalPosition, timeoutMs: number) {
    super(`read models did not reach position ${position.commit}/${position.prepare} within ${timeoutMs} ms`);
    this.name = 'ReadModelLagError';
  }
}

/**
 * Keeps the projectors caught up: at once after a local append, and on a poll for
 * appends made by other processes. Also the read-your-writes barrier of the API.
 */
export class ProjectionDaemon implements ProjectionBarrier {
  private timer: NodeJS.Timeout | null = null;
  private unsubscribe: (() => void) | null = null;
  private stopped = false;
  private reactionsListener: (() => void) | null = null;

  constructor(
    /** Read models the API answers from: the barrier waits for these. */
    private readonly readModels: readonly Projector[],
    /** Consumers that only schedule work (process managers): kept running, not waited for. */
    private readonly reactions: readonly Projector[],
    private readonly store: EventStore,
    private readonly pollIntervalMs: number,
    private readonly onError: (error: unknown) => void,
  ) {}

  async start(): Promise<void> {
    for (const projector of this.all()) await projector.start();
    this.unsubscribe = this.store.onAppended(() => this.kick());
    if (this.pollIntervalMs > 0) this.timer = setInterval(() => this.kick(), this.pollIntervalMs);
    this.kick();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.unsubscribe?.();
    await this.catchUpAll().catch(() => undefined);
  }

  /** Called after the reactions scheduled new work, so the job worker need not wait for its poll. */
  onReactionsApplied(listener: () => void): void {
    this.reactionsListener = listener;
  }

  /** Runs every projector until nothing is left to read (for tests and the CLI). */
  async catchUpAll(): Promise<number> {
    let total = 0;
    for (const projector of this.readModels) total += await projector.catchUp();
    let reacted = 0;
    for (const projector of this.reactions) reacted += await projector.catchUp();
    if (reacted > 0) this.reactionsListener?.();
    return total + reacted;
  }

  async waitFor(position: GlobalPosition | null, timeoutMs = 10_000): Promise<boolean> {
    if (!position) return true;
    const deadline = Date.now() + timeoutMs;
    let pause = 1;
    for (;;) {
      for (const projector of this.readModels) {
        if (!projector.hasReached(position)) await projector.catchUp();
      }
      if (this.readModels.every((projector) => projector.hasReached(position))) return true;
      // The event is not readable yet: an older transaction is still open, or another process holds the checkpoint.
      if (Date.now() > deadline) {
        this.onError(new ReadModelLagError(position, timeoutMs));
        return false;
      }
      await new Promise((resolve) => setTimeout(resolve, pause));
      pause = Math.min(pause * 2, 20);
    }
  }

  /** Events each projector has still to apply (read-model groups and reactions). */
  async lag(): Promise<{ name: string; events: number }[]> {
    const result: { name: string; events: number }[] = [];
    for (const projector of this.all()) {
      const pending = await this.store.readAll(projector.position, { maxCount: 10_000 });
      result.push({ name: projector.name, events: pending.length });
    }
    return result;
  }

  private kick(): void {
    if (this.stopped) return;
    this.catchUpAll().catch((error) => this.onError(error));
  }

  private all(): Projector[] {
    return [...this.readModels, ...this.reactions];
  }
}
