import { EXIT, ExitCode } from './exit-codes';

export interface Outcome {
  stream: 'stdout' | 'stderr';
  line: string;
  exitCode: ExitCode;
}

const parseJson = (text: string): { ok: true; value: unknown } | { ok: false } => {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
};

export const responseOutcome = (status: number, text: string): Outcome => {
  const success = status >= 200 && status < 300;
  const parsed = parseJson(text);
  if (!parsed.ok) {
    const error = success
      ? { error: 'invalid_response', detail: `service answered ${status} with a body that is not JSON` }
      : { error: `http_${status}`, detail: text.trim().slice(0, 500) };
    return { stream: 'stderr', line: JSON.stringify(error), exitCode: EXIT.errorResponse };
  }
  // Reprinting the server's own text keeps it byte for byte (no float rounding of large numbers);
  // only a multi-line body is re-serialised to hold the one-line promise.
  const trimmed = text.trim();
  const line = trimmed.includes('\n') ? JSON.stringify(parsed.value) : trimmed;
  return success
    ? { stream: 'stdout', line, exitCode: EXIT.ok }
    : { stream: 'stderr', line, exitCode: EXIT.errorResponse };
};
