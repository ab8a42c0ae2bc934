// A profiling preload for the service, not used by the bench itself: where the service allocates.
//   BENCH_SERVICE_NODE_ARGS="--require ./bench/lib/alloc-sampling.cjs" ALLOC_TRACE_FILE=/tmp/alloc.heapprofile \
//     npx tsx bench/probe.ts postgres 64 100 10
// V8's sampling heap profiler, keeping the samples of objects that young- and old-generation
// collections have freed (by default it keeps only live ones, which hides the short-lived garbage
// that makes collection the largest item of a CPU profile). The probe creates "$ALLOC_TRACE_FILE.req"
// before and after its measured window: the first starts sampling, the second writes the profile
// (open it in Chrome's DevTools, Memory tab, or sum it by function).
'use strict';
const fs = require('fs');
const inspector = require('inspector');

const file = process.env.ALLOC_TRACE_FILE || '/tmp/alloc.heapprofile';
const session = new inspector.Session();
session.connect();
let sampling = false;

setInterval(() => {
  if (!fs.existsSync(`${file}.req`)) return;
  fs.unlinkSync(`${file}.req`);
  if (!sampling) {
    sampling = true;
    session.post('HeapProfiler.startSampling', {
      samplingInterval: 16384,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    });
    return;
  }
  sampling = false;
  session.post('HeapProfiler.stopSampling', (error, result) => {
    if (!error) fs.writeFileSync(file, JSON.stringify(result.profile));
  });
}, 100).unref();
