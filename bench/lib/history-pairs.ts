import { alternateWindows, median, RatioSpread, ratioSpread } from './interleaved-pairs';
import { Scenario } from './scenario';
import { round } from './util';

/** One window on the fresh hot wallet and one on the wallet with the long history, back to back. */
export interface HistoryPair {
  fresh_rps: number;
  history_rps: number;
  /** history_rps ÷ fresh_rps. */
  ratio: number;
  fresh_p50_ms: number;
  history_p50_ms: number;
  fresh_p99_ms: number;
  history_p99_ms: number;
  /** Share of all cores used by other processes during the pair (the larger of its two windows). */
  others_busy: number | null;
}

export interface HistoryPairs extends RatioSpread {
  connections: number;
  seconds_per_window: number;
  pairs: HistoryPair[];
  fresh_rps_median: number;
  history_rps_median: number;
  history_p99_ms_median: number;
}

export interface HistoryPairWindows {
  pairs: number;
  seconds: number;
  connections: number;
  fresh: (seconds: number) => Promise<Scenario>;
  history: (seconds: number) => Promise<Scenario>;
}

/**
 * Topups on the fresh wallet and on the history wallet in alternating windows: the pairs that
 * decide history_vs_fresh (odd pairs run the history wallet first). Run after the history
 * wallet's cold start, so they compare warm lanes.
 */
export async function measureHistoryPairs(windows: HistoryPairWindows): Promise<HistoryPairs> {
  const pairs = await alternateWindows({
    pairs: windows.pairs,
    seconds: windows.seconds,
    base: windows.fresh,
    compared: windows.history,
  });
  return summarizeHistoryPairs(
    windows,
    pairs.map(({ base: fresh, compared: history, ratio, others_busy }) => ({
      fresh_rps: fresh.rps,
      history_rps: history.rps,
      ratio,
      fresh_p50_ms: fresh.p50_ms,
      history_p50_ms: history.p50_ms,
      fresh_p99_ms: fresh.p99_ms,
      history_p99_ms: history.p99_ms,
      others_busy,
    })),
  );
}

export function summarizeHistoryPairs(
  windows: Pick<HistoryPairWindows, 'connections' | 'seconds'>,
  pairs: readonly HistoryPair[],
): HistoryPairs {
  return {
    connections: windows.connections,
    seconds_per_window: windows.seconds,
    pairs: [...pairs],
    ...ratioSpread(pairs.map((pair) => pair.ratio)),
    fresh_rps_median: round(median(pairs.map((pair) => pair.fresh_rps)), 1),
    history_rps_median: round(median(pairs.map((pair) => pair.history_rps)), 1),
    history_p99_ms_median: round(median(pairs.map((pair) => pair.history_p99_ms)), 2),
  };
}
