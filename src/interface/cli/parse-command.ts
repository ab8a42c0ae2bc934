import { parseArgs, ParseArgsConfig } from 'node:util';
import { AdminRequest, CommandArgs, CommandSpec, OutputMode } from './command-spec';
import { errorCode, errorMessage } from './error-fields';
import { checkValue } from './option-kinds';

export type ParseResult =
  | { kind: 'help' }
  | { kind: 'usage-error'; message: string }
  | { kind: 'request'; request: AdminRequest; output: OutputMode; progressLabel: string | null };

type Commands = Readonly<Record<string, CommandSpec>>;

const isHelp = (arg: string): boolean => arg === '--help' || arg === '-h';

const findCommand = (
  argv: readonly string[],
  commands: Commands,
): { spec: CommandSpec; rest: readonly string[] } | null => {
  for (const words of [2, 1]) {
    const name = argv.slice(0, words).join(' ');
    if (argv.length >= words && Object.hasOwn(commands, name)) {
      return { spec: commands[name], rest: argv.slice(words) };
    }
  }
  return null;
};

const usageError = (message: string): ParseResult => ({ kind: 'usage-error', message });

export const parseCommand = (argv: readonly string[], commands: Commands): ParseResult => {
  if (argv.length === 0) return usageError('missing command');
  if (isHelp(argv[0])) return { kind: 'help' };
  const found = findCommand(argv, commands);
  if (found === null) {
    return argv.some(isHelp) ? { kind: 'help' } : usageError(`unknown command "${argv.slice(0, 2).join(' ')}"`);
  }
  const { spec, rest } = found;

  const options: NonNullable<ParseArgsConfig['options']> = { help: { type: 'boolean', short: 'h' } };
  for (const [name, option] of Object.entries(spec.options)) {
    options[name] = { type: option.type === 'flag' ? 'boolean' : 'string' };
  }
  let parsed: ReturnType<typeof parseArgs>;
  try {
    // strict: an unknown option or `--name --corridor IN` (missing value) is a usage error, not a guess.
    parsed = parseArgs({ args: [...rest], options, strict: true, allowPositionals: true });
  } catch (error) {
    if (errorCode(error)?.startsWith('ERR_PARSE_ARGS')) return usageError(errorMessage(error));
    throw error;
  }
  if (parsed.values.help === true) return { kind: 'help' };

  const strings = new Map<string, string>();
  const flags = new Set<string>();

  if (parsed.positionals.length > spec.positionals.length) {
    return usageError(`unexpected argument "${parsed.positionals[spec.positionals.length]}"`);
  }
  for (const [index, positional] of spec.positionals.entries()) {
    const value = parsed.positionals[index];
    if (value === undefined) return usageError(`missing <${positional.name}>`);
    const problem = checkValue(positional.kind, value);
    if (problem !== null) return usageError(`<${positional.name}> ${problem}`);
    strings.set(positional.name, value);
  }

  for (const [name, option] of Object.entries(spec.options)) {
    const value = parsed.values[name];
    if (option.type === 'flag') {
      if (value === true) flags.add(name);
      continue;
    }
    if (typeof value !== 'string') {
      if (option.required) return usageError(`missing --${name}`);
      continue;
    }
    const problem = checkValue(option.kind, value);
    if (problem !== null) return usageError(`--${name} ${problem}`);
    strings.set(name, value);
  }

  const args: CommandArgs = {
    value: (name) => {
      const value = strings.get(name);
      if (value === undefined) throw new Error(`command table reads undeclared or optional "${name}"`);
      return value;
    },
    optional: (name) => strings.get(name),
    flag: (name) => flags.has(name),
  };
  const name = argv.slice(0, argv.length - rest.length).join(' ');
  return {
    kind: 'request',
    request: spec.build(args),
    output: spec.output ?? 'json',
    progressLabel: spec.longRunning ? name : null,
  };
};
