import { LoadResult, topupLoad } from './load';
import { median } from './interleaved-pairs';
import { openTopupLoad } from './open-load';

/** A probe's load window: `openRate` requests a second offered when above 0 (the bench's open model), else `connections` kept busy. */
export interface ProbeWindow {
  connections: number;
  seconds: number;
  openRate: number;
}

export function probeWindowLoad(url: string, keys: readonly string[], window: ProbeWindow): Promise<LoadResult> {
  return window.openRate > 0
    ? openTopupLoad({ url, rate: window.openRate, seconds: window.seconds, keys })
    : topupLoad({ url, connections: window.connections, durationSeconds: window.seconds }, keys);
}

export const describeProbeWindow = (window: ProbeWindow): string =>
  window.openRate > 0 ? `${window.openRate} requests/s offered` : `${window.connections} connections`;

/** "median 1.02 (0.98 1.05 ...)": a probe's ratios per pair, for a person to read. */
export const listedRatios = (values: readonly number[]): string =>
  `median ${median(values).toFixed(2)} (${values.map((value) => value.toFixed(2)).join(' ')})`;
