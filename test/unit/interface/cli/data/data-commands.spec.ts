import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { parseDataCommand } from '../../../../../src/interface/cli/data/data-commands';
import { isProgressLine, ProgressReporter } from '../../../../../src/interface/cli/progress-reporter';

describe('parsing the data commands', () => {
  let scratch: string;
  beforeAll(() => {
    scratch = mkdtempSync(join(tmpdir(), 'data-commands-'));
    writeFileSync(join(scratch, 'log.jsonl'), '');
    mkdirSync(join(scratch, 'data', 'pglite'), { recursive: true });
    writeFileSync(join(scratch, 'data', 'pglite', 'PG_VERSION'), '17\n');
    mkdirSync(join(scratch, 'empty'));
  });
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('takes export without arguments, or with --without-secrets', () => {
    expect(parseDataCommand(['export'])).toEqual({ kind: 'export', withoutSecrets: false });
    expect(parseDataCommand(['export', '--without-secrets'])).toEqual({ kind: 'export', withoutSecrets: true });
    expect(parseDataCommand(['export', 'x'])).toEqual({ kind: 'usage-error', message: 'unexpected argument "x"' });
  });

  it('imports a file as an export, and a PGlite folder or a data directory holding one as a PGlite folder', () => {
    expect(parseDataCommand(['import', join(scratch, 'log.jsonl')])).toEqual({
      kind: 'import',
      source: { kind: 'history-file', path: join(scratch, 'log.jsonl') },
    });
    const pglite = { kind: 'import', source: { kind: 'pglite-folder', path: join(scratch, 'data', 'pglite') } };
    expect(parseDataCommand(['import', join(scratch, 'data', 'pglite')])).toEqual(pglite);
    expect(parseDataCommand(['import', join(scratch, 'data')])).toEqual(pglite);
  });

  it('refuses a missing source, a folder that is no database, and unknown verbs', () => {
    expect(parseDataCommand(['import'])).toEqual({
      kind: 'usage-error',
      message: 'missing <log.jsonl | pglite-folder>',
    });
    expect(parseDataCommand(['import', join(scratch, 'nothing')])).toEqual({
      kind: 'usage-error',
      message: `${join(scratch, 'nothing')}: no such file or folder`,
    });
    expect(parseDataCommand(['import', join(scratch, 'empty')])).toMatchObject({
      kind: 'usage-error',
      message: expect.stringContaining('not a PGlite data folder'),
    });
    expect(parseDataCommand(['copy'])).toEqual({ kind: 'usage-error', message: 'unknown command "data copy"' });
    expect(parseDataCommand([])).toMatchObject({ kind: 'usage-error' });
    expect(parseDataCommand(['import', '--help'])).toEqual({ kind: 'help' });
  });
});

class Screen extends Writable {
  text = '';
  constructor(readonly isTTY: boolean) {
    super();
  }
  override _write(chunk: Buffer, _encoding: string, done: () => void): void {
    this.text += chunk.toString();
    done();
  }
}

describe('the progress bar of the data commands', () => {
  it('is drawn on a terminal and ends complete on its own line', () => {
    const screen = new Screen(true);
    const meter = new ProgressReporter(screen, 'import', 2_000);
    meter.update(500);
    expect(screen.text).toContain('import [=======>');
    expect(screen.text).toContain('500/2,000 events');
    meter.finish(2_000);
    expect(screen.text.endsWith('\n')).toBe(true);
    expect(screen.text.trimEnd().split('\r').pop()).toMatch(/^\u001b\[2Kimport \[=+\] 100% {2}2,000\/2,000 events/);
  });

  it('is JSON lines when stderr is not a terminal: at most one a second, and a last one when the step ends', () => {
    const screen = new Screen(false);
    const meter = new ProgressReporter(screen, 'export', 10);
    meter.update(5);
    meter.update(6);
    meter.finish(10);
    const lines = screen.text.trimEnd().split('\n');
    expect(lines.every(isProgressLine)).toBe(true);
    expect(lines.map((line) => JSON.parse(line))).toEqual([
      { progress: expect.objectContaining({ step: 'export', done: 5, total: 10, unit: 'events', finished: false }) },
      {
        progress: {
          step: 'export',
          done: 10,
          total: 10,
          unit: 'events',
          per_second: expect.any(Number),
          eta_seconds: 0,
          finished: true,
        },
      },
    ]);
  });

  it('counts what it is given, with or without a rate, on a terminal', () => {
    const screen = new Screen(true);
    const meter = new ProgressReporter(screen, 'bench', 12, { unit: 'scenarios', rateUnit: null });
    meter.update(3);
    expect(screen.text).toContain('3/12 scenarios  ETA');
    expect(screen.text).not.toContain('ev/s');
  });
});
