import { LoadResult, topupLoad } from './load';
import { ModeResults } from './types';
import { log, round } from './util';

export interface LongRunOptions {
  url: string;
  keys: readonly string[];
  connections: number;
  targetOrders: number;
  minutes: number;
  /** Orders accepted so far in this mode (the long run adds to them). */
  counter: { accepted: number };
  /** Counts a load's answers into the mode's money check. */
  count: (pending: Promise<LoadResult>) => Promise<LoadResult>;
  /** The memory figure sampled after each chunk (service RSS, or service plus its database server). */
  memoryMb: () => number | null;
  label: string;
}

/** Topups in chunks until the orders are reached or the time is up, sampling memory after each chunk. */
export async function longRun(options: LongRunOptions): Promise<NonNullable<ModeResults['memory']['long_run']>> {
  const chunk = 50_000;
  const deadline = Date.now() + options.minutes * 60_000;
  const samples: { orders: number; rss_mb: number | null }[] = [
    { orders: options.counter.accepted, rss_mb: options.memoryMb() },
  ];
  log(
    `${options.label}: topups until ${options.targetOrders} orders or ${options.minutes} min, memory read every ${chunk} orders`,
  );
  const started = Date.now();
  let ok = 0;
  while (options.counter.accepted < options.targetOrders && Date.now() < deadline) {
    const amount = Math.min(chunk, options.targetOrders - options.counter.accepted);
    const run = await options.count(
      topupLoad({ url: options.url, connections: options.connections, durationSeconds: 0, amount }, options.keys),
    );
    ok += run.ok;
    samples.push({ orders: options.counter.accepted, rss_mb: options.memoryMb() });
    log(
      `  ${options.counter.accepted} orders, ${run.rps} topups/s, p99 ${run.p99_ms} ms, memory ${samples[samples.length - 1].rss_mb} MB`,
    );
  }
  const seconds = (Date.now() - started) / 1000;
  return {
    orders_reached: options.counter.accepted,
    target_orders: options.targetOrders,
    seconds: round(seconds, 1),
    rps: ok > 0 && seconds > 0 ? round(ok / seconds, 1) : null,
    samples,
  };
}
