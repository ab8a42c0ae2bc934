import { CommandSpec } from '../../../../src/interface/cli/command-spec';
import { COMMANDS } from '../../../../src/interface/cli/commands';
import { parseCommand } from '../../../../src/interface/cli/parse-command';

const credit = (amount: string) =>
  parseCommand(['wallet', 'credit', 'p_1', '--environment', 'live', '--amount', amount, '--reference', 'r'], COMMANDS);

describe('parseCommand', () => {
  test.each(['10', '10.1', '10.10', '0.01', '1000000.00'])('accepts amount %s and keeps it as typed', (amount) => {
    expect(credit(amount)).toMatchObject({ kind: 'request', request: { body: { amount } } });
  });

  test.each(['0', '0.00', '10.123', '-5', '+5', '1e3', '010', '.5', '5.', '1,000', ' 5', 'NaN', ''])(
    'rejects amount %j',
    (amount) => {
      expect(credit(amount)).toMatchObject({ kind: 'usage-error', message: expect.stringContaining('--amount') });
    },
  );

  test.each([
    [['partner', 'create', '--name', 'A', '--corridor', 'in'], '--corridor'],
    [['partner', 'kyc', 'p_1', '--status', 'pending'], '--status'],
    [['key', 'regenerate', 'p_1', '--environment', 'prod'], '--environment'],
    [['order', 'resolve', 'o_1', '--outcome', 'refunded', '--reason', 'x'], '--outcome'],
    [['order', 'resolve', 'o_1', '--outcome', 'failed', '--reason', '  '], '--reason'],
    [['order', 'list', '--limit', '0'], '--limit'],
    [['order', 'list', '--limit', '5x'], '--limit'],
    [['partner', 'show', '..'], '<partner_id>'],
    [['partner', 'show', 'a/b'], '<partner_id>'],
    [['partner', 'show'], '<partner_id>'],
    [['partner', 'show', 'p_1', 'p_2'], 'p_2'],
    [['partner', 'create', '--corridor', 'IN'], '--name'],
    [['partner', 'create', '--name', '--corridor', 'IN'], '--name'],
    [['verify', '--held'], '--held'],
    [['partner'], 'partner'],
    [['constructor'], 'constructor'],
    [[], 'missing command'],
  ])('rejects %j naming %s', (argv, named) => {
    expect(parseCommand(argv, COMMANDS)).toMatchObject({
      kind: 'usage-error',
      message: expect.stringContaining(named),
    });
  });

  test.each([[['--help']], [['-h']], [['partner', 'create', '--help']], [['nonsense', '--help']]])(
    'treats %j as a request for help',
    (argv) => {
      expect(parseCommand(argv, COMMANDS)).toEqual({ kind: 'help' });
    },
  );

  test('a text value spelled --help is sent, not taken for help', () => {
    const parsed = parseCommand(['order', 'resolve', 'o_1', '--outcome', 'success', '--reason=--help'], COMMANDS);

    expect(parsed).toMatchObject({ kind: 'request', request: { body: { reason: '--help' } } });
  });

  test('validates dates for commands that take them', () => {
    const report: CommandSpec = {
      usage: '--from <YYYY-MM-DD>',
      summary: 'test only',
      positionals: [],
      options: { from: { type: 'string', kind: 'date', required: true } },
      build: (a) => ({ method: 'GET', path: `/report?from=${a.value('from')}` }),
    };
    const commands = { report };

    expect(parseCommand(['report', '--from', '2024-02-29'], commands)).toMatchObject({ kind: 'request' });
    for (const bad of ['2023-02-29', '2024-13-01', '24-01-01', '2024-1-1']) {
      expect(parseCommand(['report', '--from', bad], commands)).toMatchObject({ kind: 'usage-error' });
    }
  });
});
