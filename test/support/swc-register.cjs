// Runs the service's TypeScript sources in a plain `node` process, without a build:
//   node --require ./test/support/swc-register.cjs src/main.ts
// Every .ts file outside node_modules is compiled with @swc/core when it is first required, with
// the options the jest transform uses (jest.config.js): legacy decorators and decorator metadata,
// which Nest's dependency injection needs and tsx does not emit. Nothing is cached on disk.
'use strict';
const { readFileSync } = require('node:fs');
const { transformSync } = require('@swc/core');

const OPTIONS = {
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
    target: 'es2022',
  },
  module: { type: 'commonjs' },
  sourceMaps: 'inline',
  swcrc: false,
  configFile: false,
};

require.extensions['.ts'] = function compileTypeScript(module, filename) {
  if (filename.includes('/node_modules/')) throw new Error(`swc-register: refusing to compile ${filename}`);
  const { code } = transformSync(readFileSync(filename, 'utf8'), { ...OPTIONS, filename });
  module._compile(code, filename);
};
