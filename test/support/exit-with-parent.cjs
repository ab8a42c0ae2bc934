// Preload for service processes that tests start (test/support/service-process.ts): their stdin is a
// pipe from the test process, which never writes to it. When it closes — the test process ended,
// however it ended, even by SIGKILL — the service stops as on SIGTERM, so no service outlives its test.
'use strict';
// Only the main thread watches: a worker thread's stdin is its own, empty stream.
if (process.env.EXIT_WITH_PARENT_STDIN === '1' && require('node:worker_threads').isMainThread) {
  const stop = () => {
    process.kill(process.pid, 'SIGTERM');
    // A shutdown that hangs must not leave the process behind either.
    setTimeout(() => process.exit(1), 30_000).unref();
  };
  process.stdin.once('end', stop);
  process.stdin.once('error', stop);
  process.stdin.resume();
  // Watching stdin must not keep a process alive that would otherwise exit.
  if (typeof process.stdin.unref === 'function') process.stdin.unref();
}
