/** Whether a run was taken on a quiet machine, and so may stand as the reference in docs/performance.md. */
export interface Quietness {
  /** Share of all cores busy over a few seconds before the run, while the bench did nothing. */
  idle_busy_before: number | null;
  load_average_start: number;
  /** The largest share of all cores that other processes used during any measured window. */
  others_busy_max: number | null;
  reference: boolean;
  not_reference_because: string[];
}

/** Past these, other work on the machine moves the figures more than the changes they are to show. */
export const QUIET_LIMITS = { idleBusyBefore: 0.1, loadAveragePerCore: 0.5, othersBusy: 0.15 } as const;

export function judgeQuietness(reading: {
  idleBusyBefore: number | null;
  loadAverageStart: number;
  cores: number;
  othersBusy: readonly (number | null | undefined)[];
}): Quietness {
  const others = reading.othersBusy.filter((value): value is number => typeof value === 'number');
  const othersMax = others.length ? Math.max(...others) : null;
  const reasons: string[] = [];
  if (reading.idleBusyBefore !== null && reading.idleBusyBefore > QUIET_LIMITS.idleBusyBefore) {
    reasons.push(
      `the machine was ${Math.round(reading.idleBusyBefore * 100)} % busy before the run (limit ${QUIET_LIMITS.idleBusyBefore * 100} %)`,
    );
  }
  const loadLimit = QUIET_LIMITS.loadAveragePerCore * reading.cores;
  if (reading.loadAverageStart > loadLimit)
    reasons.push(`load average ${reading.loadAverageStart} at the start (limit ${loadLimit})`);
  if (othersMax !== null && othersMax > QUIET_LIMITS.othersBusy) {
    reasons.push(
      `other processes used up to ${Math.round(othersMax * 100)} % of the machine during a window (limit ${QUIET_LIMITS.othersBusy * 100} %)`,
    );
  }
  return {
    idle_busy_before: reading.idleBusyBefore,
    load_average_start: reading.loadAverageStart,
    others_busy_max: othersMax,
    reference: reasons.length === 0,
    not_reference_because: reasons,
  };
}
