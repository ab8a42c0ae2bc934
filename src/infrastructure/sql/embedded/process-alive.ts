import { readFileSync } from 'node:fs';

export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether the process is alive and, where /proc tells, a Node.js process (a stale pid file's id may be reused). */
export function isNodeProcessAlive(pid: number): boolean {
  if (!isProcessAlive(pid)) return false;
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8')
      .split('\0')
      .some((part) => /(^|\/)node(\.exe)?$|^node\b/.test(part));
  } catch {
    return true; // no /proc (macOS, Windows): trust the signal check
  }
}
