import { readFileSync, readdirSync } from 'node:fs';

/**
 * Where the machine's CPU went during a scenario, from /proc (Linux only; null elsewhere):
 * CPU milliseconds per answered request for the service, PostgreSQL (every server's postmaster,
 * its live backends and the backends it reaped) and the client (this process, which runs the
 * load generator, plus children it has reaped, such as pgbench).
 */
export interface CpuShare {
  /** CPU ms per answered request, by process group. */
  service_ms: number | null;
  postgres_ms: number;
  client_ms: number;
  /** Share of all cores busy over the run (0..1), whoever used them. */
  machine_busy: number;
  /**
   * Share of all cores (0..1) used by processes that are neither the service, PostgreSQL nor the
   * bench: other work on the machine, which makes the run's figures no reference.
   */
  others_busy: number;
}

/** Ticks of each PostgreSQL server on the machine, by its postmaster's pid. */
type PostgresTicks = Map<number, number>;

interface Sample {
  service: number | null;
  postgres: PostgresTicks;
  client: number;
  machineBusy: number;
  machineTotal: number;
}

/** Clock ticks per second for /proc/<pid>/stat; USER_HZ is 100 on every Linux build that matters here. */
export const TICKS_PER_SECOND = 100;

export interface ProcessTicks {
  own: number;
  /** Of `own`, the ticks in the kernel (stime). */
  system: number;
  children: number;
  name: string;
  parent: number;
}

/** utime, stime, cutime, cstime of one process, in ticks (fields 14-17; the name in parentheses may hold spaces). */
export function processTicks(pid: number | 'self'): ProcessTicks | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const close = stat.lastIndexOf(')');
    const name = stat.slice(stat.indexOf('(') + 1, close);
    const fields = stat.slice(close + 2).split(' ');
    // fields[0] is field 3 (state); the parent's pid is field 4, utime field 14.
    const at = (field: number): number => Number(fields[field - 3]);
    return { own: at(14) + at(15), system: at(15), children: at(16) + at(17), name, parent: at(4) };
  } catch {
    return null;
  }
}

/**
 * Each server's ticks: its postmaster's own and reaped children's, plus its live backends'. Kept
 * per server because other work may start or stop a server (a test's embedded one) meanwhile:
 * one that stops takes all its ticks with it, which a machine-wide sum would count as negative.
 */
function postgresTicks(): PostgresTicks {
  const processes = new Map<number, ProcessTicks>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const ticks = processTicks(Number(entry));
    if (ticks?.name === 'postgres') processes.set(Number(entry), ticks);
  }
  const servers: PostgresTicks = new Map();
  for (const [pid, ticks] of processes) {
    const postmaster = processes.has(ticks.parent) ? ticks.parent : pid;
    const counted = postmaster === pid ? ticks.own + ticks.children : ticks.own;
    servers.set(postmaster, (servers.get(postmaster) ?? 0) + counted);
  }
  return servers;
}

/** Ticks spent between two samples by the servers alive at both. */
export function postgresTicksBetween(before: PostgresTicks, after: PostgresTicks): number {
  let spent = 0;
  for (const [postmaster, ticks] of after) {
    const then = before.get(postmaster);
    if (then !== undefined) spent += Math.max(0, ticks - then);
  }
  return spent;
}

function machineTicks(): { busy: number; total: number } {
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0];
  const values = line.trim().split(/\s+/).slice(1).map(Number);
  const total = values.reduce((sum, value) => sum + value, 0);
  const idle = values[3] + (values[4] ?? 0);
  return { busy: total - idle, total };
}

function sample(servicePid: number | null): Sample | null {
  const self = processTicks('self');
  if (!self) return null;
  const service = servicePid === null ? null : processTicks(servicePid);
  const machine = machineTicks();
  return {
    service: service ? service.own : null,
    postgres: postgresTicks(),
    client: self.own + self.children,
    machineBusy: machine.busy,
    machineTotal: machine.total,
  };
}

/** Runs `work` and reports the CPU spent per answered request (`answered` reads it from the result). */
export async function withCpuShare<T>(
  servicePid: number | null,
  work: () => Promise<T>,
  answered: (result: T) => number,
): Promise<{ result: T; cpu: CpuShare | null }> {
  const before = sample(servicePid);
  const result = await work();
  const after = sample(servicePid);
  const requests = answered(result);
  if (!before || !after || requests <= 0) return { result, cpu: null };
  const perRequest = (ticks: number): number =>
    Math.round(((ticks * 1000) / TICKS_PER_SECOND / requests) * 1000) / 1000;
  const machineTotal = after.machineTotal - before.machineTotal;
  const postgres = postgresTicksBetween(before.postgres, after.postgres);
  return {
    result,
    cpu: {
      service_ms: before.service === null || after.service === null ? null : perRequest(after.service - before.service),
      postgres_ms: perRequest(postgres),
      client_ms: perRequest(after.client - before.client),
      machine_busy:
        machineTotal > 0 ? Math.round(((after.machineBusy - before.machineBusy) / machineTotal) * 100) / 100 : 0,
      others_busy: machineTotal > 0 ? othersShare(before, after, postgres, machineTotal) : 0,
    },
  };
}

/** /proc/stat counts jiffies of all cores, as /proc/<pid>/stat does for one process: the same unit. */
function othersShare(before: Sample, after: Sample, postgres: number, machineTotal: number): number {
  const ours = (after.service ?? 0) - (before.service ?? 0) + postgres + (after.client - before.client);
  const others = Math.max(0, after.machineBusy - before.machineBusy - ours);
  return Math.round((others / machineTotal) * 100) / 100;
}

/**
 * How busy the machine is while the bench does nothing: the share of all cores (0..1) used over
 * `ms` milliseconds. A reference run needs a quiet machine (see quietness in results).
 */
export async function idleMachineBusy(ms = 3_000): Promise<number | null> {
  try {
    const before = machineTicks();
    await new Promise((resolve) => setTimeout(resolve, ms));
    const after = machineTicks();
    const total = after.total - before.total;
    return total > 0 ? Math.round(((after.busy - before.busy) / total) * 100) / 100 : null;
  } catch {
    return null;
  }
}

/**
 * Waits until the process has used under `busyShare` of one core over half a second (background
 * work such as projections of seeded history finished), or `maxMs` has passed; returns the ms waited.
 */
export async function waitForProcessIdle(pid: number, maxMs = 120_000, busyShare = 0.05): Promise<number> {
  const started = Date.now();
  const intervalMs = 500;
  let last = processTicks(pid);
  while (last && Date.now() - started < maxMs) {
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
    const now = processTicks(pid);
    if (!now) break;
    const used = ((now.own - last.own) * 1000) / TICKS_PER_SECOND / intervalMs;
    if (used < busyShare) break;
    last = now;
  }
  return Date.now() - started;
}

/** CPU time of one server process and of every PostgreSQL server, taken before and after a span of several steps. */
export interface CpuSnapshot {
  server: number | null;
  postgres: PostgresTicks;
}

export function cpuSnapshot(serverPid: number): CpuSnapshot {
  return { server: processTicks(serverPid)?.own ?? null, postgres: postgresTicks() };
}

/** Milliseconds of CPU spent between two snapshots by the server process and by PostgreSQL. */
export function cpuMsBetween(before: CpuSnapshot, after: CpuSnapshot): { server: number | null; postgres: number } {
  const ms = (ticks: number): number => (ticks * 1000) / TICKS_PER_SECOND;
  return {
    server: before.server === null || after.server === null ? null : ms(after.server - before.server),
    postgres: ms(postgresTicksBetween(before.postgres, after.postgres)),
  };
}
