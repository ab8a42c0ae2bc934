import { parseCommand } from '../../../../src/interface/cli/parse-command';
import { COMMANDS } from '../../../../src/interface/cli/commands';
import { progressLine, RebuildSnapshot } from '../../../../src/interface/cli/progress-bar';

const snapshot = (fields: Partial<RebuildSnapshot>): RebuildSnapshot => ({
  rebuild_id: 'rbd_1',
  projection: 'balances',
  state: 'running',
  phase: 'building',
  events_applied: 0,
  events_total: 0,
  events_per_second: 0,
  eta_seconds: null,
  ...fields,
});

describe('the rebuild progress bar', () => {
  it('shows the share done, the events, the rate and the time left', () => {
    expect(
      progressLine(
        snapshot({ events_applied: 1200, events_total: 2500, events_per_second: 3100, eta_seconds: 75 }),
        20,
      ),
    ).toBe('balances [=========>          ]  48%  1,200/2,500 events  3,100 ev/s  ETA 1:15');
  });

  it('has no time left to show before there is a rate', () => {
    expect(progressLine(snapshot({ events_total: 10 }), 10)).toBe(
      'balances [>         ]   0%  0/10 events  0 ev/s  ETA --:--',
    );
  });

  it('is full once the rebuild is done, and names the phase after building', () => {
    expect(
      progressLine(
        snapshot({ state: 'completed', phase: 'done', events_applied: 10, events_total: 10, eta_seconds: 0 }),
        10,
      ),
    ).toBe('balances [==========] 100%  10/10 events  0 ev/s  ETA 0:00  done');
    expect(progressLine(snapshot({ state: 'completed', phase: 'done' }), 4)).toBe(
      'balances [====] 100%  0/0 events  0 ev/s  ETA --:--  done',
    );
  });

  it('counts hours when the rebuild is long', () => {
    expect(
      progressLine(
        snapshot({ events_applied: 1, events_total: 100_000_000, events_per_second: 10_000, eta_seconds: 9_999 }),
        5,
      ),
    ).toContain('ETA 2:46:39');
  });
});

describe('parsing the projections and audit commands', () => {
  it('projections rebuild follows the rebuild it starts', () => {
    expect(parseCommand(['projections', 'rebuild', 'partner-settings'], COMMANDS)).toEqual({
      kind: 'request',
      request: { method: 'POST', path: '/projections/partner-settings/rebuild' },
      output: 'follow-rebuild',
      progressLabel: null,
    });
  });

  it('audit wallet streams, with the period and format in the query', () => {
    expect(
      parseCommand(
        [
          'audit',
          'wallet',
          'p_1',
          '--environment',
          'live',
          '--from',
          '2026-03-01',
          '--to',
          '2026-03-31',
          '--format',
          'csv',
        ],
        COMMANDS,
      ),
    ).toEqual({
      kind: 'request',
      request: { method: 'GET', path: '/audit/wallets/p_1/live?format=csv&from=2026-03-01&to=2026-03-31' },
      output: 'stream',
      progressLabel: null,
    });
  });

  it.each([
    [['audit', 'wallet', 'p_1', '--environment', 'live', '--format', 'xml'], '--format'],
    [['audit', 'wallet', 'p_1', '--environment', 'live', '--format', 'csv', '--from', '2026-02-30'], '--from'],
    [['audit', 'statement', 'p_1', '--environment', 'live'], '--date'],
    [['audit', 'order'], '<order_id>'],
    [['projections', 'rebuild'], '<name>'],
  ])('rejects %j naming %s', (argv, named) => {
    expect(parseCommand(argv, COMMANDS)).toMatchObject({
      kind: 'usage-error',
      message: expect.stringContaining(named),
    });
  });

  it('audit statement and audit order print one JSON object like the other commands', () => {
    expect(
      parseCommand(['audit', 'statement', 'p_1', '--environment', 'sandbox', '--date', '2026-03-10'], COMMANDS),
    ).toEqual({
      kind: 'request',
      request: { method: 'GET', path: '/audit/statements/p_1/sandbox?date=2026-03-10' },
      output: 'json',
      progressLabel: null,
    });
    expect(parseCommand(['audit', 'order', 'ord_1'], COMMANDS)).toMatchObject({
      output: 'json',
      request: { path: '/audit/orders/ord_1' },
    });
  });
});
