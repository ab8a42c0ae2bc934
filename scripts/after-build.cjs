// Run by `npm run build` after tsc: copies the pages' static files into dist, and keeps the operator CLI's
// older compiled path (`node dist/interface/cli/main.js`), which operators' scripts call, as a forward to
// the entry point beside the service's (`dist/cli-main.js`).
const { cpSync, mkdirSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

const dist = join(__dirname, '..', 'dist');
for (const page of ['portal', 'console', 'shared/web']) {
  cpSync(join(__dirname, '..', 'src', 'interface', page, 'public'), join(dist, 'interface', page, 'public'), {
    recursive: true,
  });
}
mkdirSync(join(dist, 'interface', 'cli'), { recursive: true });
writeFileSync(join(dist, 'interface', 'cli', 'main.js'), "'use strict';\nrequire('../../cli-main.js');\n");
