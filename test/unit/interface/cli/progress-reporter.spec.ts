import { COMMANDS } from '../../../../src/interface/cli/commands';
import { parseCommand } from '../../../../src/interface/cli/parse-command';
import { ElapsedProgress, isProgressLine } from '../../../../src/interface/cli/progress-reporter';

class Screen {
  text = '';
  constructor(readonly isTTY: boolean) {}
  write(chunk: string): boolean {
    this.text += chunk;
    return true;
  }
}

describe('the elapsed time of work done by the service', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('shows nothing for work done within a second', () => {
    const screen = new Screen(false);
    const progress = new ElapsedProgress(screen, 'verify');
    jest.advanceTimersByTime(900);
    progress.stop();
    expect(screen.text).toBe('');
  });

  it('is a JSON line a second when stderr is no terminal, and a last one when the answer starts', () => {
    const screen = new Screen(false);
    const progress = new ElapsedProgress(screen, 'audit report');
    jest.advanceTimersByTime(2_500);
    progress.stop();
    const lines = screen.text.trimEnd().split('\n');
    expect(lines.every(isProgressLine)).toBe(true);
    expect(lines.map((line) => JSON.parse(line))).toEqual([
      { progress: { step: 'audit report', elapsed_seconds: 1, finished: false } },
      { progress: { step: 'audit report', elapsed_seconds: 2, finished: false } },
      { progress: { step: 'audit report', elapsed_seconds: 3, finished: true } },
    ]);
  });

  it('is one line redrawn on a terminal, cleared when the answer starts', () => {
    const screen = new Screen(true);
    const progress = new ElapsedProgress(screen, 'verify');
    jest.advanceTimersByTime(2_000);
    expect(screen.text.split('\r').pop()).toBe('\u001b[2Kverify: the service is working, 2 s');
    progress.stop();
    expect(screen.text.endsWith('\r\u001b[2K')).toBe(true);
    expect(screen.text).not.toContain('\n');
  });

  it('is shown for verify and audit report only', () => {
    const label = (argv: string[]) => {
      const parsed = parseCommand(argv, COMMANDS);
      return parsed.kind === 'request' ? parsed.progressLabel : 'not a request';
    };
    expect(label(['verify'])).toBe('verify');
    expect(
      label(['audit', 'report', 'ptn_1', '--environment', 'sandbox', '--from', '2026-01-01', '--to', '2026-01-31']),
    ).toBe('audit report');
    expect(label(['audit', 'order', 'ord_1'])).toBeNull();
  });
});
