import { Writable } from 'node:stream';
import { barLine } from '../progress-bar';

const REDRAW_MS = 100;

/**
 * A progress bar for one step of a data command, redrawn on stderr (at most ten times a second) when stderr is
 * a terminal; silent otherwise, so that scripts see only the result.
 */
export class ProgressMeter {
  private readonly started = Date.now();
  private drawnAt = 0;
  private done = 0;

  constructor(
    private readonly stderr: Writable & { isTTY?: boolean },
    private readonly label: string,
    private readonly total: number,
  ) {}

  update(done: number): void {
    this.done = done;
    if (Date.now() - this.drawnAt >= REDRAW_MS) this.draw(true);
  }

  /** Draws the bar a last time, complete, and ends its line. */
  finish(done = this.done): void {
    this.done = done;
    this.draw(false);
    if (this.stderr.isTTY) this.stderr.write('\n');
  }

  private draw(running: boolean): void {
    if (!this.stderr.isTTY) return;
    this.drawnAt = Date.now();
    const seconds = (this.drawnAt - this.started) / 1000;
    const perSecond = seconds > 0 ? Math.round(this.done / seconds) : 0;
    const total = Math.max(this.total, this.done);
    const etaSeconds = perSecond > 0 ? (total - this.done) / perSecond : null;
    this.stderr.write(`\r\u001b[2K${barLine({ label: this.label, done: this.done, total, perSecond, etaSeconds, running })}`);
  }
}
