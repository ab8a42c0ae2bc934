/**
 * Three tiers, each a jest project (`npm run test:unit`, `test:contract`, `test:integration`):
 * - unit: no server, no database, no network; seconds (test/unit, and specs beside the sources);
 * - contract: the adapters against their real backends (test/contract: PostgreSQL, the embedded
 *   server, EventStoreDB when configured);
 * - integration: whole services over HTTP on the machine's PostgreSQL (test/integration), and a few
 *   seeds of the seeded simulation (test/simulation).
 * `npm test` runs all three after a type check: unit on two workers, then contract and integration
 * in band (they share one PostgreSQL server; a read right after a write can miss it when another file's
 * transactions run beside it, see CONTRIBUTING.md).
 */
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

const project = (displayName, testMatch) => ({ displayName, testEnvironment: 'node', testMatch, transform });

module.exports = {
  testTimeout: 30000,
  projects: [
    project('unit', ['<rootDir>/test/unit/**/*.spec.ts', '<rootDir>/src/**/*.spec.ts']),
    project('contract', ['<rootDir>/test/contract/**/*.spec.ts']),
    project('integration', ['<rootDir>/test/integration/**/*.spec.ts', '<rootDir>/test/simulation/**/*.spec.ts']),
  ],
};
