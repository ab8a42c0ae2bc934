import { measureHistoryPairs } from '../../../bench/lib/history-pairs';
import { measureInterleavedPairs, median, ratioSpread } from '../../../bench/lib/interleaved-pairs';
import { judgeQuietness } from '../../../bench/lib/reference-run';
import { Scenario } from '../../../bench/lib/scenario';

const window = (rps: number, p50: number, othersBusy = 0): Scenario => ({
  connections: 64,
  duration_s: 6,
  requests: rps * 6,
  ok: rps * 6,
  rps,
  p50_ms: p50,
  p99_ms: p50 * 2,
  mean_ms: p50,
  max_ms: p50 * 3,
  non_2xx: 0,
  errors: 0,
  timeouts: 0,
  statuses: {},
  sent: rps * 6,
  cpu: { service_ms: 0.3, postgres_ms: 0.3, client_ms: 0.05, machine_busy: 0.9, others_busy: othersBusy },
});

describe('interleaved LIMIT and topup pairs', () => {
  it('alternates which side runs first and takes the median of the pairs as the ratio, with the spread', async () => {
    const order: string[] = [];
    const limits = [1000, 800, 1000, 1000, 1000];
    const topups = [900, 800, 500, 1000, 950];
    let l = 0;
    let t = 0;
    const result = await measureInterleavedPairs({
      pairs: 5,
      seconds: 6,
      connections: 64,
      limit: async () => (order.push('limit'), window(limits[l++], 0.5)),
      topup: async () => (order.push('topup'), window(topups[t++], 3, t === 3 ? 0.4 : 0)),
    });
    expect(order).toEqual(['limit', 'topup', 'topup', 'limit', 'limit', 'topup', 'topup', 'limit', 'limit', 'topup']);
    expect(result.pairs.map((pair) => pair.ratio)).toEqual([0.9, 1, 0.5, 1, 0.95]);
    expect(result.ratio_median).toBe(0.95);
    expect(result.ratio_min).toBe(0.5);
    expect(result.ratio_max).toBe(1);
    expect(result.spread_pct).toBe(52.6);
    expect(result.pairs[2].others_busy).toBe(0.4);
    expect(result.topup_p50_ms_median).toBe(3);
  });

  it('takes the middle of an even count as the mean of the two middle values', () => {
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });
});

describe('interleaved hot-wallet and history-wallet pairs', () => {
  it('alternates the two wallets, history first in odd pairs, and takes the median of history ÷ fresh', async () => {
    const order: string[] = [];
    const fresh = [2000, 2200, 2400, 2500];
    const history = [1800, 2420, 2400, 3000];
    let f = 0;
    let h = 0;
    const result = await measureHistoryPairs({
      pairs: 4,
      seconds: 6,
      connections: 64,
      fresh: async () => (order.push('fresh'), window(fresh[f++], 20)),
      history: async () => (order.push('history'), window(history[h++], 25, h === 4 ? 0.2 : 0.01)),
    });
    expect(order).toEqual(['fresh', 'history', 'history', 'fresh', 'fresh', 'history', 'history', 'fresh']);
    expect(result.pairs.map((pair) => pair.ratio)).toEqual([0.9, 1.1, 1, 1.2]);
    expect(result.pairs[0]).toEqual({
      fresh_rps: 2000,
      history_rps: 1800,
      ratio: 0.9,
      fresh_p50_ms: 20,
      history_p50_ms: 25,
      fresh_p99_ms: 40,
      history_p99_ms: 50,
      others_busy: 0.01,
    });
    expect(result.pairs[3].others_busy).toBe(0.2);
    expect(result).toEqual(
      expect.objectContaining({
        connections: 64,
        seconds_per_window: 6,
        ratio_median: 1.05,
        ratio_min: 0.9,
        ratio_max: 1.2,
        spread_pct: 28.6,
        fresh_rps_median: 2300,
        history_rps_median: 2410,
        history_p99_ms_median: 50,
      }),
    );
  });

  it('sums up any set of pair ratios by their median, extremes and spread', () => {
    expect(ratioSpread([0.94, 1.18])).toEqual({
      ratio_median: 1.06,
      ratio_min: 0.94,
      ratio_max: 1.18,
      spread_pct: 22.6,
    });
    expect(ratioSpread([0, 0])).toEqual({ ratio_median: 0, ratio_min: 0, ratio_max: 0, spread_pct: 0 });
  });
});

describe('a reference run', () => {
  it('is one on a quiet machine, whatever the load average left by earlier work', () => {
    const verdict = judgeQuietness({
      idleBusyBefore: 0.02,
      loadAverageStart: 2.6,
      othersBusy: [0.01, null, 0.07],
      othersBusyInPairs: [0.03],
    });
    expect(verdict).toEqual({
      idle_busy_before: 0.02,
      load_average_start: 2.6,
      others_busy_max: 0.07,
      reference: true,
      not_reference_because: [],
    });
  });

  it('is not one when the machine was busy before, or other processes took a share during the pairs or on average, and says why', () => {
    const verdict = judgeQuietness({
      idleBusyBefore: 0.35,
      loadAverageStart: 3.53,
      othersBusy: [0.02, 0.3, 0.1],
      othersBusyInPairs: [0.3],
    });
    expect(verdict.reference).toBe(false);
    expect(verdict.not_reference_because).toEqual([
      'the machine was 35 % busy before the run (limit 10 %)',
      "other processes used up to 30 % of the machine during a pair's window (limit 15 %)",
      'other processes used 14 % of the machine on average over the windows (limit 5 %)',
    ]);
  });
});
