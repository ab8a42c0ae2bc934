/**
 * What a Markdown page names in this repository: paths in code spans, in prose and in a folder tree
 * (a fenced block whose first line is a folder alone, such as README's project layout), bare file
 * names in code spans, and links. Fenced code is otherwise left alone: commands and examples in it
 * are not claims about the tree.
 */
export interface Reference {
  /**
   * - `path`: from the repository root; a trailing slash names a folder, `*` matches within one name;
   * - `file`: a file named without its folder (`reloadly-provider.ts`): some file of the tree has that name;
   * - `link`: a Markdown link or image, as written (`../operations.md#backups`, `#rate-limit`, `https://…`).
   */
  readonly kind: 'path' | 'file' | 'link';
  readonly target: string;
  readonly line: number;
  /** Where it was written: a code span, plain text, a folder tree, or a link. */
  readonly where: 'code' | 'prose' | 'tree' | 'link';
}

/** Top folders of the repository a path may start with (`dist/` and `data/` only exist at run time). */
const ROOT_FOLDERS = ['src', 'test', 'docs', 'bench', 'tools', 'scripts', 'docker', 'clients', 'dist', 'data', '.ci'];

/** The folders of `src/`: architecture.md and the decisions name source files from there (`application/orders/pay-bill.ts`). */
const SOURCE_FOLDERS = ['domain', 'application', 'infrastructure', 'interface', 'config', 'composition'];

const FILE_NAME = /^[\w.-]+\.(ts|cjs|mjs|js|json|md|css|html|sql|ya?ml|conf|svg|png)$/;
const CODE_SPAN = /(`+)([^`][\s\S]*?)\1/g;
const LINK = /!?\[(?:[^\]\\]|\\.)*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g;
const PROSE_PATH = new RegExp(`(?<![\\w./@-])((?:${ROOT_FOLDERS.map(escape).join('|')})/[\\w.*/-]*)`, 'g');
const FENCE = /^\s*(```|~~~)(.*)$/;

export function referencesIn(markdown: string): Reference[] {
  const references: Reference[] = [];
  const lines = markdown.split('\n');
  let fence: { readonly tree: TreeReader | undefined } | undefined;
  let paragraph: { readonly line: number; text: string } | undefined;
  const endParagraph = (): void => {
    if (paragraph) references.push(...inParagraph(paragraph.text, paragraph.line));
    paragraph = undefined;
  };
  lines.forEach((text, index) => {
    const line = index + 1;
    const fenceMark = FENCE.exec(text);
    if (fenceMark) {
      endParagraph();
      const next = lines[index + 1] ?? '';
      fence = fence
        ? undefined
        : { tree: fenceMark[2].trim() === '' && /^[\w.-]+\/\s*$/.test(next) ? new TreeReader() : undefined };
    } else if (fence) {
      for (const target of fence.tree?.read(text) ?? []) references.push({ kind: 'path', line, target, where: 'tree' });
    } else if (text.trim() === '') {
      endParagraph();
    } else if (paragraph) {
      paragraph.text += `\n${text}`;
    } else {
      paragraph = { line, text };
    }
  });
  endParagraph();
  return references;
}

/** The references of one paragraph (code spans and links may run over a line break), in the order written. */
function inParagraph(text: string, firstLine: number): Reference[] {
  const lineAt = (offset: number): number => firstLine + (text.slice(0, offset).match(/\n/g)?.length ?? 0);
  const found: { readonly offset: number; readonly reference: Reference }[] = [];
  for (const match of text.matchAll(LINK)) {
    found.push({
      offset: match.index,
      reference: { kind: 'link', target: match[1], line: lineAt(match.index), where: 'link' },
    });
  }
  for (const match of text.matchAll(CODE_SPAN)) {
    const named = namedIn(match[2]);
    if (named) found.push({ offset: match.index, reference: { ...named, line: lineAt(match.index), where: 'code' } });
  }
  const blank = (written: string): string => written.replace(/[^\n]/g, ' ');
  const prose = text.replace(CODE_SPAN, blank).replace(LINK, blank);
  for (const match of prose.matchAll(PROSE_PATH)) {
    const target = pathFrom(match[1]);
    if (target)
      found.push({
        offset: match.index,
        reference: { kind: 'path', target, line: lineAt(match.index), where: 'prose' },
      });
  }
  return found.sort((a, b) => a.offset - b.offset).map(({ reference }) => reference);
}

function namedIn(code: string): Pick<Reference, 'kind' | 'target'> | undefined {
  const written = code.trim();
  if (FILE_NAME.test(written)) return { kind: 'file', target: written };
  const target = pathFrom(written);
  return target ? { kind: 'path', target } : undefined;
}

/** A path from the repository root, or undefined for text that is not one (a command, a template, a media type). */
function pathFrom(written: string): string | undefined {
  const candidate = written
    .replace(/^\.\//, '')
    .replace(/:\d+$/, '')
    .replace(/[.,:;)]+$/, '');
  if (!candidate.includes('/') || /[\s<>{}$…]|\.\.|:\/\//.test(candidate)) return undefined;
  const first = candidate.slice(0, candidate.indexOf('/'));
  if (ROOT_FOLDERS.includes(first)) return candidate;
  const sourceFile = candidate.endsWith('/') || FILE_NAME.test(candidate.slice(candidate.lastIndexOf('/') + 1));
  if (SOURCE_FOLDERS.includes(first) && sourceFile) return `src/${candidate}`;
  return undefined;
}

/**
 * Reads a folder tree drawn with two spaces per level, names first, then a description:
 *
 *     src/
 *       main.ts              start …
 *       domain/              pure TypeScript …
 *         money/  phone/     Money, …
 *
 * Names are apart by at most two spaces, and the description by three or more (or by a word that
 * is no name). Lines indented as far as the descriptions continue the one above.
 */
class TreeReader {
  private readonly folders: string[] = [];

  read(text: string): string[] {
    const indent = text.length - text.trimStart().length;
    if (text.trim() === '' || indent % 2 !== 0 || indent > 16) return [];
    const depth = indent / 2;
    const names: string[] = [];
    const [nameColumn] = text.trim().split(/ {3,}/);
    for (const word of nameColumn.split(/\s+/)) {
      const isName = /^[\w.-]+(\/[\w.-]+)*\/?$/.test(word) && (word.includes('/') || FILE_NAME.test(word));
      if (!isName) break;
      names.push(word);
    }
    this.folders.length = Math.min(this.folders.length, depth);
    const parent = this.folders.join('');
    const last = names.at(-1);
    if (last?.endsWith('/') && names.length === 1) this.folders.push(last);
    return names.map((name) => parent + name);
  }
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
