// A profiling preload for the service, not used by the bench itself:
//   BENCH_SERVICE_NODE_ARGS="--require ./bench/lib/pg-trace.cjs" PG_TRACE_FILE=/tmp/trace.txt npx tsx bench/probe.ts
// counts and times every statement the service sends through `pg`, and the rows it got back, by statement text. Creating
// the file "$PG_TRACE_FILE.req" makes the service write the counts since the last dump to
// $PG_TRACE_FILE and start again (a signal would not do: Nest's shutdown hooks take them all).
'use strict';
const pg = require('pg');
const fs = require('fs');

const stats = new Map();
const file = process.env.PG_TRACE_FILE || '/tmp/pg-trace.txt';
const query = pg.Client.prototype.query;

pg.Client.prototype.query = function traced(config, values, callback) {
  const text = typeof config === 'string' ? config : config && config.text;
  const key = String(text || '?')
    .replace(/\s+/g, ' ')
    .slice(0, 90);
  const started = process.hrtime.bigint();
  const done = (res) => {
    const entry = stats.get(key) || { count: 0, ms: 0, rows: 0 };
    entry.count += 1;
    entry.rows = (entry.rows || 0) + ((res && res.rows && res.rows.length) || 0);
    entry.ms += Number(process.hrtime.bigint() - started) / 1e6;
    stats.set(key, entry);
  };
  const wrap = (cb) =>
    function wrapped() {
      done(arguments[1]);
      return cb.apply(this, arguments);
    };
  if (typeof values === 'function') return query.call(this, config, wrap(values));
  if (typeof callback === 'function') return query.call(this, config, values, wrap(callback));
  if (config && typeof config.callback === 'function') {
    config.callback = wrap(config.callback);
    return query.call(this, config, values);
  }
  const result = query.call(this, config, values, callback);
  if (result && typeof result.then === 'function') result.then(done, () => done());
  return result;
};

setInterval(() => {
  if (!fs.existsSync(`${file}.req`)) return;
  fs.unlinkSync(`${file}.req`);
  const rows = [...stats.entries()]
    .sort((a, b) => b[1].count - a[1].count)
    .map(
      ([key, s]) =>
        `${String(s.rows).padStart(9)} rows ${String(s.count).padStart(8)} ${s.ms.toFixed(0).padStart(8)} ms ${(s.ms / s.count).toFixed(2).padStart(7)} ${key}`,
    );
  fs.writeFileSync(file, `${rows.join('\n')}\n`);
  stats.clear();
}, 100).unref();
