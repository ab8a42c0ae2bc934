import { HttpResult, describeFailure, openAdminRequest } from './admin-http';
import { AdminRequest } from './command-spec';
import { ProgressReporter, ProgressStream } from './progress-reporter';

export const NDJSON = 'application/x-ndjson';

interface ProgressLine {
  progress?: { done?: unknown; total?: unknown };
  result?: { status?: unknown; body?: unknown };
}

// Sends a request for long work answered as NDJSON: its progress lines drive a bar on a terminal (JSON
// lines otherwise, after `showAfterMs`), and its last line is returned as the answer. Plain JSON is read as such.
export async function sendWithCountedProgress(
  serviceUrl: string,
  token: string,
  request: AdminRequest,
  stderr: ProgressStream,
  label: string,
  /** Work done sooner shows nothing, so quick answers (and scripts reading stderr) see no extra line. */
  showAfterMs = 1_000,
): Promise<HttpResult> {
  const started = Date.now();
  const opened = await openAdminRequest(serviceUrl, token, request);
  if (opened.kind === 'unreachable') return opened;
  const { response } = opened;
  try {
    if (!(response.headers.get('content-type') ?? '').includes(NDJSON) || response.body === null) {
      return { kind: 'response', status: response.status, text: await response.text() };
    }
    let reporter: ProgressReporter | null = null;
    let result: HttpResult | null = null;
    const decoder = new TextDecoder();
    let pending = '';
    const take = (line: string): void => {
      if (line.trim() === '') return;
      const parsed = JSON.parse(line) as ProgressLine;
      if (parsed.progress) {
        const done = Number(parsed.progress.done);
        const total = Number(parsed.progress.total);
        if (reporter === null && Date.now() - started < showAfterMs) return;
        reporter ??= new ProgressReporter(stderr, label, total);
        reporter.update(done, total);
      } else if (parsed.result) {
        const body = parsed.result.body;
        // A page (an HTML report) comes as a string; a JSON answer as the value itself.
        result = {
          kind: 'response',
          status: Number(parsed.result.status),
          text: typeof body === 'string' ? body : JSON.stringify(body),
        };
      }
    };
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      pending += decoder.decode(value, { stream: true });
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      lines.forEach(take);
    }
    take(pending + decoder.decode());
    (reporter as ProgressReporter | null)?.finish();
    return result ?? { kind: 'unreachable', cause: 'the service ended its answer before the result' };
  } catch (error) {
    return { kind: 'unreachable', cause: describeFailure(error) };
  }
}
