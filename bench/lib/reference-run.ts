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

/**
 * Past these, other work on the machine moves the figures more than the changes they are to show. The load
 * average is recorded but not judged: it lags by minutes, and the bench's own build raises it just before.
 */
export const QUIET_LIMITS = { idleBusyBefore: 0.1, othersBusyInPairs: 0.15, othersBusyMean: 0.05 } as const;

export function judgeQuietness(reading: {
  idleBusyBefore: number | null;
  loadAverageStart: number;
  /** Other processes' share in every measured window. */
  othersBusy: readonly (number | null | undefined)[];
  /** The same in the windows of the interleaved pairs, which decide topup_vs_limit and history_vs_fresh. */
  othersBusyInPairs: readonly (number | null | undefined)[];
}): Quietness {
  const known = (values: readonly (number | null | undefined)[]): number[] =>
    values.filter((value): value is number => typeof value === 'number');
  const others = known(reading.othersBusy);
  const inPairs = known(reading.othersBusyInPairs);
  const othersMax = others.length ? Math.max(...others) : null;
  const mean = others.length ? others.reduce((sum, value) => sum + value, 0) / others.length : null;
  const percent = (share: number): number => Math.round(share * 100);
  const reasons: string[] = [];
  if (reading.idleBusyBefore !== null && reading.idleBusyBefore > QUIET_LIMITS.idleBusyBefore) {
    reasons.push(
      `the machine was ${percent(reading.idleBusyBefore)} % busy before the run (limit ${percent(QUIET_LIMITS.idleBusyBefore)} %)`,
    );
  }
  const pairsMax = inPairs.length ? Math.max(...inPairs) : null;
  if (pairsMax !== null && pairsMax > QUIET_LIMITS.othersBusyInPairs) {
    reasons.push(
      `other processes used up to ${percent(pairsMax)} % of the machine during a pair's window (limit ${percent(QUIET_LIMITS.othersBusyInPairs)} %)`,
    );
  }
  if (mean !== null && mean > QUIET_LIMITS.othersBusyMean) {
    reasons.push(
      `other processes used ${percent(mean)} % of the machine on average over the windows (limit ${percent(QUIET_LIMITS.othersBusyMean)} %)`,
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
