import { Scenario } from './types';
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

export interface InterleavedPairs {
  connections: number;
  seconds_per_window: number;
  pairs: MeasuredPair[];
  /** topup req/s over LIMIT tx/s: the median of the pairs' ratios. */
  ratio_median: number;
  ratio_min: number;
  ratio_max: number;
  /** (max − min) / median, in percent: how far apart the pairs were. */
  spread_pct: number;
  topup_p50_ms_median: number;
  topup_p99_ms_median: number;
  limit_p50_ms_median: number;
}

export interface PairWindows {
  pairs: number;
  seconds: number;
  connections: number;
  limit(seconds: number): Promise<Scenario>;
  topup(seconds: number): Promise<Scenario>;
}

export const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

/**
 * LIMIT and topups in short alternating windows, so both see the same machine: a burst of other
 * work, a checkpoint or a warmer cache falls on both sides of a pair, not on one scenario of a
 * long run. Odd pairs run topups first, so neither side always follows the other.
 */
export async function measureInterleavedPairs(windows: PairWindows): Promise<InterleavedPairs> {
  const pairs: MeasuredPair[] = [];
  for (let index = 0; index < windows.pairs; index++) {
    let limit: Scenario;
    let topup: Scenario;
    if (index % 2 === 0) {
      limit = await windows.limit(windows.seconds);
      topup = await windows.topup(windows.seconds);
    } else {
      topup = await windows.topup(windows.seconds);
      limit = await windows.limit(windows.seconds);
    }
    const others = [limit.cpu?.others_busy, topup.cpu?.others_busy].filter(
      (value): value is number => typeof value === 'number',
    );
    pairs.push({
      limit_rps: limit.rps,
      topup_rps: topup.rps,
      ratio: limit.rps > 0 ? round(topup.rps / limit.rps, 3) : 0,
      topup_p50_ms: topup.p50_ms,
      topup_p99_ms: topup.p99_ms,
      limit_p50_ms: limit.p50_ms,
      others_busy: others.length ? Math.max(...others) : null,
    });
  }
  return summarize(windows, pairs);
}

export function summarize(
  windows: Pick<PairWindows, 'connections' | 'seconds'>,
  pairs: readonly MeasuredPair[],
): InterleavedPairs {
  const ratios = pairs.map((pair) => pair.ratio);
  const ratioMedian = median(ratios);
  return {
    connections: windows.connections,
    seconds_per_window: windows.seconds,
    pairs: [...pairs],
    ratio_median: round(ratioMedian, 3),
    ratio_min: Math.min(...ratios),
    ratio_max: Math.max(...ratios),
    spread_pct: ratioMedian > 0 ? round(((Math.max(...ratios) - Math.min(...ratios)) / ratioMedian) * 100, 1) : 0,
    topup_p50_ms_median: round(median(pairs.map((pair) => pair.topup_p50_ms)), 2),
    topup_p99_ms_median: round(median(pairs.map((pair) => pair.topup_p99_ms)), 2),
    limit_p50_ms_median: round(median(pairs.map((pair) => pair.limit_p50_ms)), 2),
  };
}
