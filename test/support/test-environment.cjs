// Jest's node environment, with one change for jest's worker processes: once a worker's loop is empty it
// ends with process.exit() instead of freeing its whole heap, which took longer than the half second jest
// waits before it reports "a worker process has failed to exit gracefully" (CONTRIBUTING.md, "Open handles").
const { TestEnvironment } = require('jest-environment-node');

if (process.env.JEST_WORKER_ID !== undefined && typeof process.send === 'function') {
  process.once('beforeExit', () => process.exit());
}

module.exports = TestEnvironment;
