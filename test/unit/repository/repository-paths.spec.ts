import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { referencesIn } from '../../support/docs/markdown-references';
import { RepositoryReferences } from '../../support/docs/repository-references';

const ROOT = join(__dirname, '..', '..', '..');

/**
 * Named in the documents but absent from the repository, each for a reason. A path is only listed
 * here while some document names it and it is absent (the last test checks both).
 */
const NAMED_BUT_ABSENT: Readonly<Record<string, string>> = {
  'dist/': 'the build output (`npm run build`, `npm start`), written at run time and not committed',
  'interface-spec.md': 'the interface specification, kept with the product owner outside this repository',
  'postgresql.conf': "PostgreSQL's own configuration file, in the embedded server's data folder at run time",
  'tools/call': 'an MCP method name (JSON-RPC), not a path',
  'tools/list': 'an MCP method name (JSON-RPC), not a path',
};

/** Of those, the ones a local build writes into the working tree (not committed): present or not, they stay listed. */
const WRITTEN_BY_A_BUILD: ReadonlySet<string> = new Set(['dist/']);

const repository = new RepositoryReferences(ROOT, new Set(Object.keys(NAMED_BUT_ABSENT)));

/** README.md, CONTRIBUTING.md, docs/*.md and the decision records. */
const PAGES = [
  'README.md',
  'CONTRIBUTING.md',
  ...repository.filesUnder('docs/').filter((file) => /^docs\/(decisions\/)?[^/]+\.md$/.test(file)),
].sort();

describe('paths and links in the documents', () => {
  it('reads the pages it is meant to read', () => {
    expect(PAGES).toEqual(expect.arrayContaining(['README.md', 'docs/architecture.md', 'docs/decisions/README.md']));
    expect(PAGES.filter((page) => page.startsWith('docs/decisions/')).length).toBeGreaterThan(100);
  });

  it.each(PAGES)('%s names only paths, files and anchors that exist', (page) => {
    const broken = repository
      .brokenIn(page)
      .map(({ line, target, why }) => `${page}:${String(line)} ${target}: ${why}`);
    expect(broken).toEqual([]);
  });

  it("README's project layout names every file at the root of src/ and every folder one level inside it", () => {
    const tree = referencesIn(repository.read('README.md'))
      .filter((reference) => reference.where === 'tree')
      .map((reference) => reference.target);
    const expected = readdirSync(join(ROOT, 'src'), { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory()
        ? readdirSync(join(ROOT, 'src', entry.name), { withFileTypes: true })
            .filter((inner) => inner.isDirectory())
            .map((inner) => `src/${entry.name}/${inner.name}/`)
        : [`src/${entry.name}`],
    );
    const missing = expected.filter((path) => !tree.some((named) => named.startsWith(path)));
    expect(missing).toEqual([]);
  });

  it('every docs/ page cited from src/ and test/ exists', () => {
    const sources = [...repository.filesUnder('src/'), ...repository.filesUnder('test/')].filter((file) =>
      /\.(ts|cjs|js)$/.test(file),
    );
    const missing = sources.flatMap((file) =>
      [...repository.read(file).matchAll(/\bdocs\/[\w./-]+\.md\b/g)]
        .map(([cited]) => cited)
        .filter((cited) => !repository.exists(cited))
        .map((cited) => `${file}: ${cited}`),
    );
    expect(missing).toEqual([]);
  });

  it('lists a path as named but absent only while a page names it and it is absent', () => {
    const named = new Set(
      PAGES.flatMap((page) => referencesIn(repository.read(page)).map((reference) => reference.target)),
    );
    const stale = Object.keys(NAMED_BUT_ABSENT).filter(
      (path) => !named.has(path) || (repository.exists(path) && !WRITTEN_BY_A_BUILD.has(path)),
    );
    expect(stale).toEqual([]);
  });
});

describe('what counts as a path in a document', () => {
  const sample = [
    'See `src/domain/money/money.ts`, `application/orders/` and `reloadly-provider.ts`;',
    'the media type `application/json` and the command `npm run cli -- verify` are not paths.',
    'Built into dist/main.js, described in [the errors](errors.md#retries).',
    '```',
    'src/',
    '  main.ts                      start',
    '  domain/                      pure',
    '    money/  phone/             Money, phones',
    '```',
    '```sh',
    'node tools/partner-cli/partner-cli.cjs',
    '```',
  ].join('\n');

  it('finds code spans, prose paths, links and the folder tree, and nothing in other fenced code', () => {
    expect(referencesIn(sample).map(({ kind, target, where }) => `${where} ${kind} ${target}`)).toEqual([
      'code path src/domain/money/money.ts',
      'code path src/application/orders/',
      'code file reloadly-provider.ts',
      'prose path dist/main.js',
      'link link errors.md#retries',
      'tree path src/',
      'tree path src/main.ts',
      'tree path src/domain/',
      'tree path src/domain/money/',
      'tree path src/domain/phone/',
    ]);
  });
});
