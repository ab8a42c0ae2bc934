/**
 * The simulator's clock, read by everything time-dependent upstream: the wall clock or a test's (a service's manual
 * clock), moved forward by `advance` (POST /__sim/clock).
 */
export class SimClock {
  private offsetMs = 0;

  constructor(private readonly base: () => number = Date.now) {}

  now(): number {
    return this.base() + this.offsetMs;
  }

  advance(ms: number): void {
    if (!Number.isSafeInteger(ms) || ms < 0) throw new Error(`the simulator's clock only moves forward (got ${ms})`);
    this.offsetMs += ms;
  }
}
