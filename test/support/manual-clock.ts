import { Clock } from '../../src/application/ports/clock.port';

/** A clock that moves only when told: tests use it for the 30 s and 5 min timers. */
export class ManualClock implements Clock {
  private current: Date;

  constructor(start: Date = new Date('2026-01-15T10:00:00.000Z')) {
    this.current = new Date(start);
  }

  now(): Date {
    return new Date(this.current);
  }

  advance(ms: number): void {
    this.current = new Date(this.current.getTime() + ms);
  }

  set(to: Date): void {
    this.current = new Date(to);
  }
}
