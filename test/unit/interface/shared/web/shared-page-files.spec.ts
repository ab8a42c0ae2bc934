import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const INTERFACE = join(__dirname, '..', '..', '..', '..', '..', 'src', 'interface');
const SHARED = join(INTERFACE, 'shared', 'web', 'public');
const PAGES = ['console', 'portal'].map((page) => ({ page, folder: join(INTERFACE, page, 'public') }));

const read = (folder: string, file: string) => readFileSync(join(folder, file), 'utf8');

/** Every `selector { property: value }` of a style sheet (no nested rules in these), normalized. */
function declarations(css: string): Set<string> {
  const found = new Set<string>();
  for (const rule of css.replace(/\/\*[\s\S]*?\*\//g, '').split('}')) {
    const [selectors, body] = rule.split('{');
    if (body === undefined) continue;
    for (const selector of selectors.split(',').map((text) => text.replace(/\s+/g, ' ').trim())) {
      for (const declaration of body.split(';').map((text) => text.replace(/\s+/g, ' ').trim())) {
        if (declaration) found.add(`${selector} { ${declaration} }`);
      }
    }
  }
  return found;
}

/** The names a module declares at its top level (functions, classes, constants). */
const topLevelNames = (source: string): string[] =>
  [...source.matchAll(/^(?:export )?(?:async )?(?:function\*? |class |const |let |var )([\w$]+)/gm)].map(
    (match) => match[1],
  );

describe('what the console and the portal share is written once', () => {
  it.each(PAGES)("$page's style sheet repeats no rule of the shared one", ({ page, folder }) => {
    const shared = declarations(read(SHARED, 'shared.css'));
    const own = declarations(read(folder, `${page}.css`));
    expect([...own].filter((declaration) => shared.has(declaration))).toEqual([]);
  });

  it.each(PAGES)("$page's modules define none of the shared helpers again", ({ folder }) => {
    const shared = new Set(['shared-api.js', 'shared-page.js'].flatMap((file) => topLevelNames(read(SHARED, file))));
    const redefined = readdirSync(folder)
      .filter((file) => file.endsWith('.js'))
      .flatMap((file) => topLevelNames(read(folder, file)).map((name) => `${file}: ${name}`))
      .filter((entry) => shared.has(entry.split(': ')[1]));
    expect(redefined).toEqual([]);
  });

  it('the checks above find a repeated rule and a redefined helper', () => {
    expect([...declarations('.card, .x { padding: 1rem; }')]).toEqual([
      '.card { padding: 1rem }',
      '.x { padding: 1rem }',
    ]);
    expect(topLevelNames('export function cell(tag) {}\nconst $ = (id) => id;\n  const inner = 1;')).toEqual([
      'cell',
      '$',
    ]);
  });
});
