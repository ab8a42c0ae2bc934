/**
 * Integration files run one at a time, after the others: they time real waits against work that
 * another file's load would slow (webhook and stream timeouts, trace export), or read the log right
 * behind an open transaction, which another database's transactions on the same server hold back
 * (the readable horizon). Named by file name, in whichever capability folder of test/integration they sit.
 * Read by jest.config.js (the lanes of `npm test`) and scripts/flake-hunt.cjs (`--jobs`).
 */
const ALONE_FILES = [
  'drill-webhook-receiver-hangs',
  'event-stream-access',
  'revocation-under-lag',
  'scale-out-processes',
  'slow-clients',
  'snapshot-tampering',
  'tracing-otlp',
  'verify-late-readable-event',
];

/** Whether a spec file (any path) must run with nothing beside it: an ALONE file or a contract test. */
const runsAlone = (file) =>
  file.split(/[/\\]/).includes('contract') || ALONE_FILES.some((name) => file.endsWith(`/${name}.spec.ts`));

module.exports = { ALONE_FILES, runsAlone };
