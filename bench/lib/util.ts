import { readFileSync } from 'node:fs';

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export { freeLoopbackPort as freePort } from '../../src/infrastructure/net/free-loopback-port';

/** Percentile of an ascending-sorted array (nearest rank). */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return 0;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank];
}

/** Sorts a growable sample buffer and reads p50 / p99 / mean / max from it. */
export class LatencySamples {
  private values = new Float64Array(1 << 16);
  private count = 0;

  add(ms: number): void {
    if (this.count === this.values.length) {
      const grown = new Float64Array(this.values.length * 2);
      grown.set(this.values);
      this.values = grown;
    }
    this.values[this.count++] = ms;
  }

  get size(): number {
    return this.count;
  }

  summary(): { p50_ms: number; p99_ms: number; mean_ms: number; max_ms: number } {
    const sorted = this.values.slice(0, this.count).sort();
    let sum = 0;
    for (const value of sorted) sum += value;
    return {
      p50_ms: round(percentile(sorted, 50), 2),
      p99_ms: round(percentile(sorted, 99), 2),
      mean_ms: round(this.count ? sum / this.count : 0, 2),
      max_ms: round(this.count ? sorted[this.count - 1] : 0, 2),
    };
  }
}

export const round = (value: number, digits = 2): number => {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
};

/** Resident set size of a process in MB, from /proc (Linux); null where it cannot be read. */
export function rssMb(pid: number): number | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
    return match ? round(Number(match[1]) / 1024, 1) : null;
  } catch {
    return null;
  }
}

/** Peak resident set size (VmHWM) of a process in MB. */
export function peakRssMb(pid: number): number | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const match = /^VmHWM:\s+(\d+)\s+kB/m.exec(status);
    return match ? round(Number(match[1]) / 1024, 1) : null;
  } catch {
    return null;
  }
}

/** Progress lines go to stderr, so `--json` leaves stdout to the result. */
/** Drawn again under every log line on a terminal (the progress bar), or nothing. */
let footer: (() => void) | null = null;

export function setLogFooter(draw: (() => void) | null): void {
  footer = draw;
}

export function log(message: string): void {
  const line = `[bench ${new Date().toISOString().slice(11, 19)}] ${message}\n`;
  if (!process.stderr.isTTY || !footer) {
    process.stderr.write(line);
    return;
  }
  process.stderr.write(`\r\u001b[2K${line}`);
  footer();
}

export async function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      work,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms} ms`)), ms);
      }),
    ]);
  } finally {
    if (timer) clearTimeout(timer);
  }
}

/**
 * Memory of the embedded PostgreSQL server of a service in `dataDir`: the proportional set size
 * (Pss, shared buffers shared out instead of counted in every process) of the postmaster and its
 * children, in MB. Null off Linux or when the server is not running.
 */
export function embeddedServerRssMb(dataDir: string): number | null {
  try {
    const postmaster = Number(readFileSync(`${dataDir}/postgres/postmaster.pid`, 'utf8').split('\n')[0]);
    const pids = [postmaster, ...childrenOf(postmaster)];
    const kb = pids.reduce((sum, pid) => sum + pssKb(pid), 0);
    return round(kb / 1024, 1);
  } catch {
    return null;
  }
}

function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

function pssKb(pid: number): number {
  try {
    const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
    const match = /^Pss:\s+(\d+)\s+kB/m.exec(rollup);
    return match ? Number(match[1]) : 0;
  } catch {
    return 0;
  }
}

/** a / b to three places; 0 when there is no b. */
export const ratio = (a: number, b: number): number => (b > 0 ? round(a / b, 3) : 0);
