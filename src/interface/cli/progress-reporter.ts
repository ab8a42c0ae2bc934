import { barLine } from './progress-bar';

const REDRAW_MS = 100;
const JSON_LINE_MS = 1_000;

export interface ProgressStream {
  write(text: string): unknown;
  isTTY?: boolean;
}

export interface ProgressUnit {
  unit?: string;
  rateUnit?: string | null;
}

// One step's progress, on stderr so stdout carries only the result (decision 0103): a bar redrawn at most
// ten times a second on a terminal, otherwise a JSON line at most every second and a last one at the end,
// e.g. `{"progress":{"step":"import","done":500,"total":2000,"unit":"events","per_second":1200,"eta_seconds":1.3,"finished":false}}`.
export class ProgressReporter {
  private readonly started = Date.now();
  private shownAt = 0;
  private done = 0;

  constructor(
    private readonly stderr: ProgressStream,
    private readonly label: string,
    private total: number,
    private readonly unit: ProgressUnit = {},
  ) {}

  update(done: number, total = this.total): void {
    this.done = done;
    this.total = total;
    if (Date.now() - this.shownAt >= (this.stderr.isTTY ? REDRAW_MS : JSON_LINE_MS)) this.show(true);
  }

  redraw(): void {
    this.show(true);
  }

  finish(done = this.done): void {
    this.done = done;
    this.show(false);
    if (this.stderr.isTTY) this.stderr.write('\n');
  }

  private show(running: boolean): void {
    this.shownAt = Date.now();
    const seconds = (this.shownAt - this.started) / 1000;
    const perSecond = seconds > 0 ? Math.round(this.done / seconds) : 0;
    const total = Math.max(this.total, this.done);
    const etaSeconds = perSecond > 0 ? (total - this.done) / perSecond : null;
    if (this.stderr.isTTY) {
      const line = barLine({ label: this.label, done: this.done, total, perSecond, etaSeconds, running, ...this.unit });
      this.stderr.write(`\r\u001b[2K${line}`);
      return;
    }
    const progress = {
      step: this.label,
      done: this.done,
      total,
      unit: this.unit.unit ?? 'events',
      per_second: perSecond,
      eta_seconds: running && etaSeconds !== null ? Math.round(etaSeconds * 10) / 10 : running ? null : 0,
      finished: !running,
    };
    this.stderr.write(`${JSON.stringify({ progress })}\n`);
  }
}

export function isProgressLine(line: string): boolean {
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === 'object' && value !== null && 'progress' in value;
  } catch {
    return false;
  }
}

const WAIT_TICK_MS = 1_000;

// Work the service does in one request (verify, a report): seconds elapsed, as no count is known. On a terminal a
// line redrawn every second, else `{"progress":{"step":"verify","elapsed_seconds":3,"finished":false}}` each
// second and a last one with finished true. Work done within a second shows nothing.
export class ElapsedProgress {
  private readonly started = Date.now();
  private readonly timer: NodeJS.Timeout;
  private shown = false;

  constructor(
    private readonly stderr: ProgressStream,
    private readonly label: string,
  ) {
    this.timer = setInterval(() => this.show(false), WAIT_TICK_MS);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    if (!this.shown) return;
    if (this.stderr.isTTY) this.stderr.write('\r\u001b[2K');
    else this.show(true);
  }

  private show(finished: boolean): void {
    this.shown = true;
    const elapsed = Math.round((Date.now() - this.started) / 1000);
    if (this.stderr.isTTY) this.stderr.write(`\r\u001b[2K${this.label}: the service is working, ${elapsed} s`);
    else {
      const progress = { step: this.label, elapsed_seconds: elapsed, finished };
      this.stderr.write(`${JSON.stringify({ progress })}\n`);
    }
  }
}

export async function withElapsedProgress<T>(
  stderr: ProgressStream,
  label: string,
  work: () => Promise<T>,
): Promise<T> {
  const progress = new ElapsedProgress(stderr, label);
  try {
    return await work();
  } finally {
    progress.stop();
  }
}
