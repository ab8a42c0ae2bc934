/**
 * The layer rules of docs/architecture.md, checked by `npm run lint` (depcruise).
 * Paths are relative to the repository root; only src/ is cruised.
 */
const adapters = '(http|mcp|cli|portal|console)';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'domain-is-pure',
      comment: 'The domain imports no other layer of the service.',
      severity: 'error',
      from: { path: '^src/domain/' },
      to: { path: '^src/', pathNot: '^src/domain/' },
    },
    {
      name: 'domain-without-nest',
      comment: 'The domain knows nothing of Nest.',
      severity: 'error',
      from: { path: '^src/domain/' },
      to: { path: '@nestjs/' },
    },
    {
      name: 'domain-without-node-built-ins',
      comment: 'The domain does no I/O: no Node built-in modules.',
      severity: 'error',
      from: { path: '^src/domain/' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'application-uses-ports',
      comment: 'The application reaches infrastructure, interfaces and configuration only through ports.',
      severity: 'error',
      from: { path: '^src/application/' },
      to: { path: '^src/(infrastructure|interface|config|composition)/' },
    },
    {
      name: 'interface-without-infrastructure',
      comment: 'Interfaces talk to the application (or to ports); wiring adapters to them lives in src/composition.',
      severity: 'error',
      from: { path: '^src/interface/' },
      to: { path: '^src/infrastructure/' },
    },
    {
      name: 'interface-adapters-apart',
      comment: 'One interface adapter does not import another; what two of them share lives in src/interface/shared.',
      severity: 'error',
      from: { path: `^src/interface/${adapters}/` },
      to: { path: `^src/interface/${adapters}/`, pathNot: `^src/interface/$1/` },
    },
    {
      name: 'no-circular',
      comment: 'No module depends on itself through others.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)public/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
