import { readableLogLine } from '../../../../src/infrastructure/logging/readable-log-line';

const line = (fields: Record<string, unknown>) =>
  JSON.stringify({
    level: 30,
    time: Date.UTC(2026, 10, 28, 12, 4, 5, 120),
    service: 'partner-service',
    pid: 7,
    ...fields,
  });

describe('a log line for a person at a terminal', () => {
  it('shows the time, the level, the context and the message, then the fields that vary, without colour when not asked', () => {
    expect(readableLogLine(line({ context: 'Reloadly', msg: 'live orders go to reloadly' }), false)).toBe(
      '12:04:05.120 INFO  [Reloadly] live orders go to reloadly',
    );
    expect(
      readableLogLine(line({ msg: 'request', method: 'POST', route: '/v1/partner/topups', status: 201 }), false),
    ).toBe('12:04:05.120 INFO  request method=POST route=/v1/partner/topups status=201');
  });

  it('names each level and puts an error’s stack on the lines below it', () => {
    expect(readableLogLine(line({ level: 50, msg: 'failed', trace: 'Error: x\n    at y' }), false)).toBe(
      '12:04:05.120 ERROR failed\nError: x\n    at y',
    );
    expect(readableLogLine(line({ level: 40, msg: 'slow' }), false)).toContain(' WARN  slow');
  });

  it('colours the level when asked', () => {
    expect(readableLogLine(line({ level: 50, msg: 'failed' }), true)).toContain('\u001b[31mERROR\u001b[0m');
  });

  it('passes on a line that is not a JSON object as it is', () => {
    expect(readableLogLine('not json', false)).toBe('not json');
    expect(readableLogLine('[1,2]', false)).toBe('[1,2]');
  });
});
