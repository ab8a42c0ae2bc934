import { Scenario } from './scenario';
import { round } from './util';

/** One LIMIT window and one topup window, back to back. */
export interface MeasuredPair {
  limit_rps: number;
  topup_rps: number;
  ratio: number;
  topup_p50_ms: number;
  topup_p99_ms: number;
  limit_p50_ms: number;
  /** Share of all cores used by other processes during the pair (the larger of its two windows). */
  others_busy: number | null;
}

/** How far apart the pairs' ratios were, and the median that stands for them. */
export interface RatioSpread {
  ratio_median: number;
  ratio_min: number;
  ratio_max: number;
  /** (max − min) / median, in percent: how far apart the pairs were. */
  spread_pct: number;
}

export interface InterleavedPairs extends RatioSpread {
  connections: number;
  seconds_per_window: number;
  pairs: MeasuredPair[];
  topup_p50_ms_median: number;
  topup_p99_ms_median: number;
  limit_p50_ms_median: number;
}

export interface PairWindows {
  pairs: number;
  seconds: number;
  connections: number;
  limit: (seconds: number) => Promise<Scenario>;
  topup: (seconds: number) => Promise<Scenario>;
}

/** Two kinds of window to compare: the ratio of a pair is `compared` over `base`. */
export interface AlternatingWindows {
  pairs: number;
  seconds: number;
  /** Runs first in even pairs (the first, third, …)… */
  base: (seconds: number) => Promise<Scenario>;
  /** …and second, after `compared`, in odd ones. */
  compared: (seconds: number) => Promise<Scenario>;
}

/** The two windows of one pair, its ratio, and other processes' share of the machine in the busier window. */
export interface WindowPair {
  base: Scenario;
  compared: Scenario;
  ratio: number;
  others_busy: number | null;
}

export const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

/**
 * Two kinds of window in short alternating pairs, so both see the same machine: a burst of other
 * work, a checkpoint, a warmer cache or a service still speeding up falls on both sides of a
 * pair, not on one scenario of a long run. Odd pairs run `compared` first, so neither side always
 * follows the other.
 */
export async function alternateWindows(windows: AlternatingWindows): Promise<WindowPair[]> {
  const pairs: WindowPair[] = [];
  for (let index = 0; index < windows.pairs; index++) {
    let base: Scenario;
    let compared: Scenario;
    if (index % 2 === 0) {
      base = await windows.base(windows.seconds);
      compared = await windows.compared(windows.seconds);
    } else {
      compared = await windows.compared(windows.seconds);
      base = await windows.base(windows.seconds);
    }
    const others = [base.cpu?.others_busy, compared.cpu?.others_busy].filter(
      (value): value is number => typeof value === 'number',
    );
    pairs.push({
      base,
      compared,
      ratio: base.rps > 0 ? round(compared.rps / base.rps, 3) : 0,
      others_busy: others.length ? Math.max(...others) : null,
    });
  }
  return pairs;
}

export function ratioSpread(ratios: readonly number[]): RatioSpread {
  const ratioMedian = median(ratios);
  const min = Math.min(...ratios);
  const max = Math.max(...ratios);
  return {
    ratio_median: round(ratioMedian, 3),
    ratio_min: min,
    ratio_max: max,
    spread_pct: ratioMedian > 0 ? round(((max - min) / ratioMedian) * 100, 1) : 0,
  };
}

/** LIMIT and topups in alternating windows: the pairs that decide topup_vs_limit. */
export async function measureInterleavedPairs(windows: PairWindows): Promise<InterleavedPairs> {
  const pairs = await alternateWindows({
    pairs: windows.pairs,
    seconds: windows.seconds,
    base: windows.limit,
    compared: windows.topup,
  });
  return summarize(
    windows,
    pairs.map(({ base: limit, compared: topup, ratio, others_busy }) => ({
      limit_rps: limit.rps,
      topup_rps: topup.rps,
      ratio,
      topup_p50_ms: topup.p50_ms,
      topup_p99_ms: topup.p99_ms,
      limit_p50_ms: limit.p50_ms,
      others_busy,
    })),
  );
}

export function summarize(
  windows: Pick<PairWindows, 'connections' | 'seconds'>,
  pairs: readonly MeasuredPair[],
): InterleavedPairs {
  return {
    connections: windows.connections,
    seconds_per_window: windows.seconds,
    pairs: [...pairs],
    ...ratioSpread(pairs.map((pair) => pair.ratio)),
    topup_p50_ms_median: round(median(pairs.map((pair) => pair.topup_p50_ms)), 2),
    topup_p99_ms_median: round(median(pairs.map((pair) => pair.topup_p99_ms)), 2),
    limit_p50_ms_median: round(median(pairs.map((pair) => pair.limit_p50_ms)), 2),
  };
}
