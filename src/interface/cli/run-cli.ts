import { NDJSON, sendWithCountedProgress } from './counted-progress';
import { sendAdminRequest } from './admin-http';
import { lookupAdminToken } from './admin-token';
import { COMMANDS } from './commands';
import { errorMessage } from './error-fields';
import { followRebuild } from './follow-rebuild';
import { withElapsedProgress } from './progress-reporter';
import { streamToStdout } from './stream-output';
import { EXIT, ExitCode } from './exit-codes';
import { parseCommand } from './parse-command';
import { responseOutcome } from './response-outcome';
import { resolveServiceUrl } from './service-url';
import { usageText } from './usage';
import { parseDataCommand } from './data/data-commands';
import { runDataCommand } from './data/run-data-command';
import { OpenDataMove } from './data/data-move';

/** Loads the data commands' store wiring; only `data` commands pay for loading it (about 0.4 s of every other command's start). */
export type LoadDataMove = () => Promise<OpenDataMove>;

const run = async (argv: readonly string[], loadDataMove: LoadDataMove): Promise<ExitCode> => {
  // `data` commands open the configured store themselves; every other command calls the running service.
  if (argv[0] === 'data') return runData(argv.slice(1), loadDataMove);
  const parsed = parseCommand(argv, COMMANDS);
  if (parsed.kind === 'help' || parsed.kind === 'usage-error') return helpOrUsageError(parsed);

  const service = resolveServiceUrl(process.env);
  if (service.kind === 'invalid') {
    process.stderr.write(service.message);
    return EXIT.usage;
  }
  const token = lookupAdminToken(process.env, process.cwd());
  if (token.kind === 'missing') {
    process.stderr.write(token.message);
    return EXIT.usage;
  }

  const unreachable = (cause: string): ExitCode => {
    process.stderr.write(`error: cannot reach the service at SERVICE_URL=${service.url} (${cause}); is it running?\n`);
    return EXIT.unreachable;
  };
  if (parsed.output !== 'json') {
    const terminal = { stdout: process.stdout, stderr: process.stderr };
    const code =
      parsed.output === 'stream'
        ? await streamToStdout(service.url, token.token, parsed.request, terminal, parsed.progressLabel)
        : await followRebuild(service.url, token.token, parsed.request, terminal);
    return typeof code === 'object' ? unreachable(code.unreachable) : code;
  }

  const send = () => sendAdminRequest(service.url, token.token, parsed.request);
  const label = parsed.progressLabel;
  const result =
    label === null
      ? await send()
      : parsed.request.headers?.accept === NDJSON
        ? await sendWithCountedProgress(service.url, token.token, parsed.request, process.stderr, label)
        : await withElapsedProgress(process.stderr, label, send);
  if (result.kind === 'unreachable') return unreachable(result.cause);
  const outcome = responseOutcome(result.status, result.text);
  process[outcome.stream].write(`${outcome.line}\n`);
  return outcome.exitCode;
};

const helpOrUsageError = (parsed: { kind: 'help' } | { kind: 'usage-error'; message: string }): ExitCode => {
  if (parsed.kind === 'help') {
    process.stdout.write(usageText(COMMANDS));
    return EXIT.ok;
  }
  process.stderr.write(`error: ${parsed.message}\n\n${usageText(COMMANDS)}`);
  return EXIT.usage;
};

const runData = async (argv: readonly string[], loadDataMove: LoadDataMove): Promise<ExitCode> => {
  const parsed = parseDataCommand(argv);
  if (parsed.kind === 'help' || parsed.kind === 'usage-error') return helpOrUsageError(parsed);
  return runDataCommand(parsed, { stdout: process.stdout, stderr: process.stderr }, process.env, await loadDataMove());
};

export function runCli(argv: readonly string[], loadDataMove: LoadDataMove): void {
  run(argv, loadDataMove).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`error: ${errorMessage(error)}\n`);
      process.exitCode = EXIT.errorResponse;
    },
  );
}
