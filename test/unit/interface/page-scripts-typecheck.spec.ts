import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

/**
 * The browser scripts of the console and the portal are plain JavaScript marked `// @ts-check`,
 * served as they are (no build step): this checks them as the editor would, against the DOM's
 * types, so a misspelt property or a wrong import is a failing test, not a broken page.
 */
describe('the browser scripts type-check', () => {
  it.each([
    ['console', 'console.js'],
    ['portal', 'portal.js'],
  ])(
    '%s',
    (page, entry) => {
      const folder = join(__dirname, '..', '..', '..', 'src', 'interface', page, 'public');
      // The shared modules are served under each page's path, beside its own: `./shared-api.js` is theirs.
      const shared = join(__dirname, '..', '..', '..', 'src', 'interface', 'shared', 'web', 'public');
      const scripts = readdirSync(folder).filter((file) => file.endsWith('.js'));
      expect(scripts).toContain(entry);
      const program = ts.createProgram(
        scripts.map((file) => join(folder, file)),
        {
          allowJs: true,
          checkJs: true,
          noEmit: true,
          strict: true,
          noUnusedLocals: true,
          target: ts.ScriptTarget.ES2022,
          module: ts.ModuleKind.ES2022,
          moduleResolution: ts.ModuleResolutionKind.Bundler,
          lib: ['lib.es2022.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
          types: [],
          rootDirs: [folder, shared],
        },
      );
      const problems = ts.getPreEmitDiagnostics(program).map((diagnostic) => {
        const where =
          diagnostic.file && diagnostic.start !== undefined
            ? diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start)
            : null;
        return `${diagnostic.file?.fileName ?? ''}:${where ? where.line + 1 : ''} ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`;
      });
      expect(problems).toEqual([]);
    },
    60_000,
  );
});
