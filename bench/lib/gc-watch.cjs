// A profiling preload for the service, not used by the bench itself:
//   BENCH_SERVICE_NODE_ARGS="--require ./bench/lib/gc-watch.cjs" GC_WATCH_FILE=/tmp/gc.txt \
//     OPEN_LOAD_TRACE_FILE=/tmp/open-load.txt PROBE_OPEN_RATE=400 npx tsx bench/probe.ts postgres 64 100 20
// writes one line per garbage collection of the service's main thread: when it started (epoch ms), how long it took
// (ms) and its kind as perf_hooks gives it (1 minor/scavenge, 2 major/mark-compact, 4 incremental marking, 8 weak
// callbacks). Joined by time with the open model's trace (due time and latency per answer), it says how many slow
// answers a collection overlapped.
'use strict';
const fs = require('node:fs');
const { PerformanceObserver, performance } = require('node:perf_hooks');

const out = fs.createWriteStream(process.env.GC_WATCH_FILE || '/tmp/gc-watch.txt');
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    const kind = entry.detail ? entry.detail.kind : entry.kind;
    out.write(`${(performance.timeOrigin + entry.startTime).toFixed(1)} ${entry.duration.toFixed(2)} ${kind}\n`);
  }
}).observe({ entryTypes: ['gc'] });
