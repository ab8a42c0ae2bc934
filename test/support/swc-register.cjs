// Runs the service's TypeScript sources in a plain `node` process, without a build:
//   node --require ./test/support/swc-register.cjs src/main.ts
// Every .ts file outside node_modules is compiled with @swc/core when it is first required, with
// the options the jest transform uses (jest.config.js): legacy decorators and decorator metadata,
// which Nest's dependency injection needs and tsx does not emit. The output is kept in
// node_modules/.cache/swc-register under the hash of the source, the options and swc's version, so
// the tests' many CLI and service processes compile each file once per change, not once per start.
'use strict';
const { createHash } = require('node:crypto');
const { mkdirSync, readFileSync, renameSync, writeFileSync } = require('node:fs');
const { join, resolve } = require('node:path');
const { transformSync, version } = require('@swc/core');

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
const CACHE = resolve(__dirname, '../../node_modules/.cache/swc-register');
const SALT = `${version}\n${JSON.stringify(OPTIONS)}\n`;

function cached(source, filename) {
  const key = createHash('sha256').update(SALT).update(filename).update('\n').update(source).digest('hex');
  const path = join(CACHE, `${key}.js`);
  try {
    return readFileSync(path, 'utf8');
  } catch {
    const { code } = transformSync(source, { ...OPTIONS, filename });
    try {
      mkdirSync(CACHE, { recursive: true });
      // Written aside and renamed, so a process starting beside this one never reads half a file.
      const partial = `${path}.${process.pid}.partial`;
      writeFileSync(partial, code);
      renameSync(partial, path);
    } catch {
      // A read-only checkout still runs, compiling at every start.
    }
    return code;
  }
}

require.extensions['.ts'] = function compileTypeScript(module, filename) {
  if (filename.includes('/node_modules/')) throw new Error(`swc-register: refusing to compile ${filename}`);
  module._compile(cached(readFileSync(filename, 'utf8'), filename), filename);
};
