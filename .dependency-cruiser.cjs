/**
 * The layer rules of docs/architecture.md and dependency-cruiser's recommended hygiene rules, checked by
 * `npm run lint` over src, bench, tools, scripts and test (`depcruise src bench tools scripts test`).
 * Paths are relative to the repository root.
 */
const adapters = '(http|mcp|cli|portal|console)';
const specs = '\\.spec\\.ts$';
/**
 * The entry points: the service process (dist/main.js), its background thread, and the operator CLI
 * (dist/cli-main.js). Each loads tracing first and starts what src/composition builds.
 */
const entryPoints = ['^src/main\\.ts$', '^src/background-main\\.ts$', '^src/cli-main\\.ts$'];

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    // ---- The layers of src/ ----
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
      name: 'ports-without-use-cases',
      comment:
        "A port is declared in the application's own shapes and the domain's, never a use case's (nor a wire " +
        'shape: those live in src/interface). Two exceptions, plain names shared with the use cases: the error ' +
        'codes (application/shared/service-error.ts) and the webhook event names (application/webhooks/webhook-events.ts).',
      severity: 'error',
      from: { path: '^src/application/ports/' },
      to: {
        path: '^src/application/',
        pathNot: [
          '^src/application/ports/',
          '^src/application/shared/service-error\\.ts$',
          '^src/application/webhooks/webhook-events\\.ts$',
        ],
      },
    },
    {
      name: 'interface-without-infrastructure',
      comment: 'Interfaces talk to the application (or to ports); wiring adapters to them lives in src/composition.',
      severity: 'error',
      from: { path: '^src/interface/' },
      to: { path: '^src/infrastructure/' },
    },
    {
      name: 'infrastructure-through-ports',
      comment:
        'Adapters know the application only by its ports (and the domain), never its use cases or wiring. One ' +
        "exception: the events feed's read model applies the application's rule of which log events the partner is " +
        'told of, and with what facts (application/webhooks/partner-events.ts).',
      severity: 'error',
      from: { path: '^src/infrastructure/' },
      to: {
        path: '^src/(application|interface|composition)/',
        pathNot: ['^src/application/ports/', '^src/application/webhooks/partner-events\\.ts$'],
      },
    },
    {
      name: 'config-stands-alone',
      comment:
        'The configuration reads the environment into ServiceConfig; it imports nothing else of src but the domain.',
      severity: 'error',
      from: { path: '^src/config/' },
      to: { path: '^src/', pathNot: '^src/(config|domain)/' },
    },
    {
      name: 'composition-only-from-entry-points',
      comment: 'src/composition wires the layers together; only the entry points start it (tests may, from test/).',
      severity: 'error',
      from: { path: '^src/', pathNot: ['^src/composition/', ...entryPoints] },
      to: { path: '^src/composition/' },
    },
    {
      name: 'entry-points-start-composition',
      comment:
        'An entry point loads tracing first (before the modules it instruments) and starts what composition builds, ' +
        'reading the configuration if it must; the wiring itself lives in src/composition.',
      severity: 'error',
      from: { path: entryPoints },
      to: {
        path: '^src/',
        pathNot: ['^src/composition/', '^src/config/', '^src/infrastructure/tracing/start-tracing\\.ts$'],
      },
    },
    {
      name: 'interface-adapters-apart',
      comment: 'One interface adapter does not import another; what two of them share lives in src/interface/shared.',
      severity: 'error',
      from: { path: `^src/interface/${adapters}/` },
      to: { path: `^src/interface/${adapters}/`, pathNot: `^src/interface/$1/` },
    },

    // ---- Hygiene (dependency-cruiser's recommended set), over every folder cruised ----
    {
      name: 'no-circular',
      comment: 'No module depends on itself through others.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-orphans',
      comment:
        'A module nothing imports and that imports nothing is dead code. Specs, declaration files and dot-files ' +
        'are run or read by their tools, not imported.',
      severity: 'error',
      from: { orphan: true, pathNot: ['(^|/)[.][^/]+[.](js|cjs|mjs|ts|json)$', '[.]d[.]ts$', specs] },
      to: {},
    },
    {
      name: 'not-to-unresolvable',
      comment: 'Every import resolves to a file or to a package that is installed.',
      severity: 'error',
      from: {},
      to: {
        couldNotResolve: true,
        // Type queries (`typeof import(...)`) of @nestjs/swagger's internal services, outside its `exports`;
        // interface/http/openapi/response-schema.ts loads them at run time by file path.
        pathNot: '^@nestjs/swagger/dist/services/',
      },
    },
    {
      name: 'no-non-package-json',
      comment: 'Every package imported is declared in package.json (not merely installed as something else needs it).',
      severity: 'error',
      from: {},
      to: { dependencyTypes: ['npm-no-pkg', 'npm-unknown'] },
    },
    {
      name: 'not-to-dev-dep',
      comment:
        'What the service runs uses only `dependencies`: a devDependency is not installed in the image. Types ' +
        '(imports erased by the compiler) may come from devDependencies; tests, the bench, tools and scripts may use them.',
      severity: 'error',
      from: { path: '^src/', pathNot: specs },
      to: {
        dependencyTypes: ['npm-dev'],
        dependencyTypesNot: ['type-only', 'pre-compilation-only'],
        pathNot: 'node_modules/@types/',
      },
    },
    {
      name: 'no-duplicate-dep-types',
      comment: 'A package is declared once in package.json, as a dependency or as a devDependency.',
      severity: 'error',
      from: {},
      to: { moreThanOneDependencyType: true, dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'not-to-deprecated',
      comment: 'No package whose installed version is marked deprecated by its publisher.',
      severity: 'error',
      from: {},
      to: { dependencyTypes: ['deprecated'] },
    },
    {
      name: 'no-deprecated-core',
      comment: 'No Node built-in module that Node has deprecated.',
      severity: 'error',
      from: {},
      to: { dependencyTypes: ['core'], path: '^(punycode|domain|constants|sys|_linklist|_stream_wrap)$' },
    },
    {
      name: 'not-to-spec',
      comment: 'A spec is run, never imported: what two specs share lives in test/support.',
      severity: 'error',
      from: {},
      to: { path: specs },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['(^|/)public/', '^test/fixtures/', '^bench/results/'] },
    // 'specify': imports the compiler erases (types only) are still cruised, marked pre-compilation-only.
    tsPreCompilationDeps: 'specify',
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
