import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isProcessAlive } from './process-alive';

const STOP_TIMEOUT_MS = 60_000;

/** A killed service's server still runs: it gets a fast shutdown first, so there is never a second server on the folder. */
export const LeftoverServer = {
  async stopIfRunning(clusterDir: string, log: { warn(message: string): void }): Promise<void> {
    const pid = postmasterPid(clusterDir);
    if (pid === null || !isProcessAlive(pid)) return;
    log.warn(
      `an embedded PostgreSQL server left by an earlier run is still running on ${clusterDir} (pid ${pid}); stopping it before starting this service's own`,
    );
    signal(pid, 'SIGINT');
    const deadline = Date.now() + STOP_TIMEOUT_MS;
    while (isProcessAlive(pid)) {
      if (Date.now() > deadline) {
        // Immediate shutdown: what is committed is in the write-ahead log; the next start replays it.
        signal(pid, 'SIGQUIT');
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  },
};

function postmasterPid(clusterDir: string): number | null {
  const file = join(clusterDir, 'postmaster.pid');
  if (!existsSync(file)) return null;
  const pid = Number(readFileSync(file, 'utf8').split('\n')[0]);
  return Number.isInteger(pid) && pid > 0 ? pid : null;
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // Already gone.
  }
}
