// Jest's node environment, with one change for jest's worker processes: once a worker's loop is empty (its
// results are sent) it ends at once, because Node's own ending (heap, V8's threads) can outlast the half second
// jest waits before "a worker process has failed to exit gracefully" (CONTRIBUTING.md, "Open handles").
const { TestEnvironment } = require('jest-environment-node');

if (process.env.JEST_WORKER_ID !== undefined && typeof process.send === 'function') {
  process.once('beforeExit', () => process.kill(process.pid, 'SIGKILL'));
}

module.exports = TestEnvironment;
