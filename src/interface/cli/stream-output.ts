import { withElapsedProgress } from './progress-reporter';
import { NDJSON, sendWithCountedProgress } from './counted-progress';
import { once } from 'node:events';
import { Writable } from 'node:stream';
import { openAdminRequest, describeFailure } from './admin-http';
import { AdminRequest } from './command-spec';
import { EXIT, ExitCode } from './exit-codes';
import { responseOutcome } from './response-outcome';

export interface Unreachable {
  unreachable: string;
}

export interface Terminal {
  stdout: Writable & { isTTY?: boolean };
  stderr: Writable;
}

// Copies a 2xx body to stdout as it arrives (an audit file can be long); an error answer prints as usual. A body
// cut off half way is reported on stderr with exit 1, so a truncated file is never taken for a complete one.
// NDJSON answers (audit report) are written once their last line, the answer, has come.
export async function streamToStdout(
  serviceUrl: string,
  token: string,
  request: AdminRequest,
  terminal: Terminal,
  progressLabel: string | null = null,
): Promise<ExitCode | Unreachable> {
  if (progressLabel !== null && request.headers?.accept === NDJSON) {
    const answered = await sendWithCountedProgress(serviceUrl, token, request, terminal.stderr, progressLabel);
    if (answered.kind === 'unreachable') return { unreachable: answered.cause };
    if (answered.status < 200 || answered.status >= 300) {
      const outcome = responseOutcome(answered.status, answered.text);
      terminal[outcome.stream].write(`${outcome.line}\n`);
      return outcome.exitCode;
    }
    if (!terminal.stdout.write(answered.text)) await once(terminal.stdout, 'drain');
    return EXIT.ok;
  }
  const open = () => openAdminRequest(serviceUrl, token, request);
  const opened = progressLabel ? await withElapsedProgress(terminal.stderr, progressLabel, open) : await open();
  if (opened.kind === 'unreachable') return { unreachable: opened.cause };
  const { response } = opened;
  if (response.status < 200 || response.status >= 300 || response.body === null) {
    const outcome = responseOutcome(response.status, await response.text());
    terminal[outcome.stream].write(`${outcome.line}\n`);
    return outcome.exitCode;
  }
  try {
    for await (const chunk of response.body) {
      if (!terminal.stdout.write(chunk)) await once(terminal.stdout, 'drain');
    }
  } catch (error) {
    terminal.stderr.write(
      `${JSON.stringify({ error: 'stream_interrupted', detail: `the service stopped sending half way (${describeFailure(error)}); the output is incomplete` })}\n`,
    );
    return EXIT.errorResponse;
  }
  return EXIT.ok;
}
