/**
 * Three tiers, each a jest project (`npm run test:unit`, `test:contract`, `test:integration`):
 * - unit: no server, no database, no network; seconds (test/unit, and specs beside the sources);
 * - contract: the adapters against their real backends (test/contract: PostgreSQL, the embedded
 *   server, EventStoreDB when configured);
 * - integration: whole services over HTTP on the machine's PostgreSQL (test/integration), and a few
 *   seeds of the seeded simulation (test/simulation).
 * `npm test` runs all three after a type check: unit on two workers; then, with TEST_LANE=shared, the
 * integration files that tolerate another file beside them, on two workers; then, with TEST_LANE=alone,
 * the contract tests and the integration files test/lanes.cjs lists, one file at a time (see CONTRIBUTING.md).
 * Without TEST_LANE every file of a project is run.
 */

const { ALONE_FILES } = require('./test/lanes.cjs');
const ALONE = ALONE_FILES.map((name) => `<rootDir>/test/integration/**/${name}.spec.ts`);
const ALONE_PATTERNS = ALONE_FILES.map((name) => `/test/integration/(.+/)?${name}\\.spec\\.ts$`);
const transform = {
  '^.+\\.ts$': [
    '@swc/jest',
    {
      jsc: {
        parser: { syntax: 'typescript', decorators: true },
        transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
        target: 'es2022',
      },
      module: { type: 'commonjs' },
    },
  ],
};

const project = (displayName, testMatch, more = {}) => ({
  displayName,
  testEnvironment: '<rootDir>/test/support/test-environment.cjs',
  testMatch,
  transform,
  ...more,
});

const lane = process.env.TEST_LANE;
const INTEGRATION = ['<rootDir>/test/integration/**/*.spec.ts', '<rootDir>/test/simulation/**/*.spec.ts'];

module.exports = {
  testTimeout: 30000,
  // A worker past 1 GB after a file is replaced: workers that ran fifty files held 2–3 GB (CONTRIBUTING.md, "Open handles").
  workerIdleMemoryLimit: '1GB',
  projects: [
    project('unit', ['<rootDir>/test/unit/**/*.spec.ts', '<rootDir>/src/**/*.spec.ts']),
    project('contract', ['<rootDir>/test/contract/**/*.spec.ts']),
    lane === 'alone'
      ? project('integration', ALONE)
      : project('integration', INTEGRATION, lane === 'shared' ? { testPathIgnorePatterns: ALONE_PATTERNS } : {}),
  ],
};
