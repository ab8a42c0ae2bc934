export interface WaitOptions {
  /** How long to wait (default 15 s); ignored when `deadline` is given. */
  timeoutMs?: number;
  /** A Date.now() by which the condition must hold (several waits sharing one budget). */
  deadline?: number;
  /** Named in the error when the condition never holds. */
  what?: string;
}

/**
 * Polls a condition about something another task or process does, every 2 ms, until it holds;
 * throws once the time is up. For observing asynchronous effects, never as a pause.
 */
export function waitFor(condition: () => boolean, options: number | WaitOptions = {}): Promise<void> {
  return waitForAsync(() => Promise.resolve(condition()), options);
}

/** `waitFor` for a condition that must be read asynchronously (a row another task writes), polled one read at a time. */
export async function waitForAsync(
  condition: () => Promise<boolean>,
  options: number | WaitOptions = {},
): Promise<void> {
  const {
    timeoutMs = 15_000,
    deadline,
    what = 'condition',
  } = typeof options === 'number' ? { timeoutMs: options } : options;
  const until = deadline ?? Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}
