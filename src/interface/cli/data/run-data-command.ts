import { once } from 'node:events';
import { hostname, userInfo } from 'node:os';
import { WithheldCounts } from '../../../application/data-move/secrets-withheld';
import { StepProgress } from '../../../application/data-move/history-move';
import { ConfiguredStoreUnavailableError, StoreNotEmptyError } from '../../../application/ports/history-move.port';
import { ConfigError } from '../../../config/load-config';
import { errorCode, errorMessage } from '../error-fields';
import { EXIT, ExitCode } from '../exit-codes';
import { Terminal } from '../stream-output';
import { DataCommand } from './data-commands';
import { OpenDataMove } from './data-move';
import { ProgressReporter } from '../progress-reporter';
import { storeConfig } from './store-config';

type DataTerminal = Terminal & { stderr: Terminal['stderr'] & { isTTY?: boolean } };

export async function runDataCommand(
  command: DataCommand,
  terminal: DataTerminal,
  env: NodeJS.ProcessEnv,
  openDataMove: OpenDataMove,
): Promise<ExitCode> {
  const fail = (code: ExitCode, message: string): ExitCode => {
    terminal.stderr.write(`error: ${message}\n`);
    return code;
  };
  let config;
  try {
    config = storeConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return fail(EXIT.usage, error.message);
    throw error;
  }
  const say = (message: string): void => void terminal.stderr.write(`embedded PostgreSQL: ${message}\n`);
  const progress: StepProgress = {
    start: (step, total) => {
      const meter = new ProgressReporter(terminal.stderr, step, total);
      return { update: (done) => meter.update(done), finish: (done) => meter.finish(done) };
    },
  };
  const move = openDataMove(config, { info: say, warn: say, error: say });
  try {
    if (command.kind === 'export') {
      await move.exportHistory((line) => writeLine(terminal.stdout, line), progress, {
        withoutSecrets: command.withoutSecrets,
        exportedBy: exporter(),
      });
      return EXIT.ok;
    }
    const outcome = await move.importHistory(command.source, progress);
    terminal.stdout.write(
      `${JSON.stringify({
        imported_events: outcome.events,
        source: command.source.path,
        event_store: config.eventStore,
        read_model_events: outcome.readModelEvents,
        jobs_scheduled: outcome.jobsScheduled,
        idempotency_keys_bound: outcome.keysBound,
        ...withheldFields(outcome.withheld),
      })}\n`,
    );
    if (Object.keys(withheldFields(outcome.withheld)).length > 0) terminal.stderr.write(`${WITHHELD_NOTICE}\n`);
    return EXIT.ok;
  } catch (error) {
    if (error instanceof ConfiguredStoreUnavailableError) return fail(EXIT.unreachable, error.message);
    if (error instanceof StoreNotEmptyError) return fail(EXIT.errorResponse, error.message);
    // The reader of the export went away (`data export | head`): nothing to report.
    if (command.kind === 'export' && errorCode(error) === 'EPIPE') return EXIT.ok;
    const partial = command.kind === 'import' ? ' (events imported before the failure stay: empty the store before importing again)' : '';
    return fail(EXIT.errorResponse, `${command.kind} failed: ${errorMessage(error)}${partial}`);
  }
}

const WITHHELD_NOTICE =
  'note: the export was made --without-secrets: no API key, operator token or webhook secret of it works here. ' +
  'Regenerate the keys (key regenerate), issue operator tokens with ADMIN_TOKEN (operator create) and rotate ' +
  'webhook secrets (partner configure --rotate-webhook-secret).';

function withheldFields(withheld: WithheldCounts): Record<string, Record<string, number>> {
  const total = withheld.apiKeyHashes + withheld.operatorTokenHashes + withheld.webhookSecrets;
  if (total === 0) return {};
  return {
    withheld: {
      api_key_hashes: withheld.apiKeyHashes,
      operator_token_hashes: withheld.operatorTokenHashes,
      webhook_secrets: withheld.webhookSecrets,
    },
  };
}

/** Who runs an export, for its record: the system user and the host (the data commands take no operator token). */
function exporter(): string {
  let user: string;
  try {
    user = userInfo().username;
  } catch {
    user = process.env.USER ?? 'unknown';
  }
  return `cli:${user}@${hostname()}`;
}

/** Waits for the pipe to drain when it is full, so a large export does not pile up in memory. */
async function writeLine(stdout: Terminal['stdout'], line: string): Promise<void> {
  if (!stdout.write(`${line}\n`)) await once(stdout, 'drain');
}
