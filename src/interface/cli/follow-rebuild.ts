import { sendAdminRequest } from './admin-http';
import { AdminRequest } from './command-spec';
import { EXIT, ExitCode } from './exit-codes';
import { isRebuildSnapshot, progressLine, RebuildSnapshot } from './progress-bar';
import { responseOutcome } from './response-outcome';
import { Terminal, Unreachable } from './stream-output';

const POLL_MS = 250;

// Starts a rebuild and follows it: a bar on stderr on a terminal, otherwise a JSON line on stdout per change.
// The last line is the rebuild as it ended: stdout and exit 0 when it completed, stderr and exit 1 when not.
export async function followRebuild(
  serviceUrl: string,
  token: string,
  start: AdminRequest,
  terminal: Terminal,
): Promise<ExitCode | Unreachable> {
  const started = await sendAdminRequest(serviceUrl, token, start);
  if (started.kind === 'unreachable') return { unreachable: started.cause };
  if (started.status < 200 || started.status >= 300) {
    const outcome = responseOutcome(started.status, started.text);
    terminal[outcome.stream].write(`${outcome.line}\n`);
    return outcome.exitCode;
  }
  const first = parse(started.text);
  if (!first) {
    terminal.stderr.write(
      `${JSON.stringify({ error: 'invalid_response', detail: `service answered ${started.status} without a rebuild` })}\n`,
    );
    return EXIT.errorResponse;
  }
  const tty = terminal.stdout.isTTY === true;
  let last = '';
  const show = (snapshot: RebuildSnapshot, text: string): void => {
    if (tty) {
      terminal.stderr.write(`\r\u001b[2K${progressLine(snapshot)}`);
      return;
    }
    const key = `${snapshot.state}/${snapshot.phase}/${snapshot.events_applied}/${snapshot.events_total}`;
    if (key !== last) terminal.stdout.write(`${text.trim()}\n`);
    last = key;
  };

  let snapshot = first;
  let text = started.text;
  const path = `/projections/rebuilds/${encodeURIComponent(first.rebuild_id)}`;
  while (snapshot.state === 'running') {
    show(snapshot, text);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    const polled = await sendAdminRequest(serviceUrl, token, { method: 'GET', path });
    if (polled.kind === 'unreachable') {
      if (tty) terminal.stderr.write('\n');
      return { unreachable: polled.cause };
    }
    const next = parse(polled.text);
    if (polled.status !== 200 || !next) {
      if (tty) terminal.stderr.write('\n');
      const outcome = responseOutcome(polled.status, polled.text);
      terminal.stderr.write(`${outcome.line}\n`);
      return EXIT.errorResponse;
    }
    snapshot = next;
    text = polled.text;
  }
  if (tty) terminal.stderr.write(`\r\u001b[2K${progressLine(snapshot)}\n`);
  const { line } = responseOutcome(200, text);
  if (snapshot.state === 'completed') {
    terminal.stdout.write(`${line}\n`);
    return EXIT.ok;
  }
  terminal.stderr.write(`${line}\n`);
  return EXIT.errorResponse;
}

function parse(text: string): RebuildSnapshot | null {
  try {
    const value: unknown = JSON.parse(text);
    return isRebuildSnapshot(value) ? value : null;
  } catch {
    return null;
  }
}
