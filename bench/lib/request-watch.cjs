// A profiling preload for the service, not used by the bench itself:
//   BENCH_SERVICE_NODE_ARGS="--require ./bench/lib/request-watch.cjs" REQUEST_WATCH_FILE=/tmp/requests.txt \
//     OPEN_LOAD_TRACE_FILE=/tmp/open-load.txt PROBE_OPEN_RATE=400 npx tsx bench/probe.ts postgres 64 100 20
// writes, at exit, one line per answered request that carried an Idempotency-Key: the key, when the service's HTTP
// server saw the request (epoch ms) and how long until its answer was written (ms). Joined by key with the open
// model's trace (bench/lib/open-load.ts: due time, latency, send lag, key), a slow answer splits into the wait before
// the service read it, the service's own time, and the way back.
'use strict';
const http = require('node:http');
const fs = require('node:fs');

const lines = [];
const emit = http.Server.prototype.emit;
http.Server.prototype.emit = function watched(event, request, response) {
  if (event === 'request') {
    const arrived = performance.timeOrigin + performance.now();
    const key = request.headers['idempotency-key'];
    if (typeof key === 'string')
      response.on('finish', () =>
        lines.push(`${key} ${arrived.toFixed(1)} ${(performance.timeOrigin + performance.now() - arrived).toFixed(2)}`),
      );
  }
  return emit.apply(this, arguments);
};
process.on('exit', () =>
  fs.writeFileSync(process.env.REQUEST_WATCH_FILE || '/tmp/request-watch.txt', `${lines.join('\n')}\n`),
);
