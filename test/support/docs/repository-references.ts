import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { referencesIn, type Reference } from './markdown-references';

/** Folders that hold nothing a document names: installed, built or written at run time. */
const NOT_WALKED = new Set(['.git', 'node_modules', 'dist', 'data', 'coverage']);

/** A reference that does not hold, with where it was written. */
export interface BrokenReference {
  readonly file: string;
  readonly line: number;
  readonly target: string;
  readonly why: string;
}

/**
 * The repository as the documents may name it: its files (walked once) and the anchors of its
 * Markdown pages. `allowed` holds paths that are named but may be absent (examples, run-time files).
 */
export class RepositoryReferences {
  private readonly files: string[];
  private readonly fileNames: Set<string>;
  private readonly anchorsByPage = new Map<string, Set<string>>();

  constructor(
    private readonly root: string,
    private readonly allowed: ReadonlySet<string> = new Set(),
  ) {
    this.files = walk(root, root);
    this.fileNames = new Set(this.files.map((file) => file.slice(file.lastIndexOf('/') + 1)));
  }

  /** Every reference of a page (a path from the repository root) that names nothing there. */
  brokenIn(page: string): BrokenReference[] {
    return referencesIn(this.read(page)).flatMap((reference) => {
      const why = this.whyBroken(page, reference);
      return why ? [{ file: page, line: reference.line, target: reference.target, why }] : [];
    });
  }

  private whyBroken(page: string, reference: Reference): string | undefined {
    switch (reference.kind) {
      case 'path':
        return this.isAllowed(reference.target) || this.exists(reference.target) ? undefined : 'no such path';
      case 'file':
        return this.allowed.has(reference.target) || this.fileNames.has(reference.target)
          ? undefined
          : 'no file of that name';
      case 'link':
        return this.whyLinkBroken(page, reference.target);
    }
  }

  /** Allowed as named, or inside an allowed folder (`dist/main.js` when `dist/` is allowed, built or not). */
  private isAllowed(target: string): boolean {
    return this.allowed.has(target) || [...this.allowed].some((path) => path.endsWith('/') && target.startsWith(path));
  }

  private whyLinkBroken(page: string, target: string): string | undefined {
    if (/^[a-z][a-z+.-]*:/i.test(target)) return undefined;
    const [written, anchor] = target.split('#', 2);
    const path = written === '' ? page : join(dirname(page), decodeURIComponent(written)).split(sep).join('/');
    if (path.startsWith('..')) return 'outside the repository';
    if (!this.exists(written.endsWith('/') ? `${path}/` : path)) return 'no such file';
    if (anchor === undefined || !path.endsWith('.md')) return undefined;
    return this.anchorsOf(path).has(anchor) ? undefined : `no heading or anchor "#${anchor}" in ${path}`;
  }

  /** The files under a folder (`docs/`), from the repository root. */
  filesUnder(folder: string): string[] {
    return this.files.filter((file) => file.startsWith(folder));
  }

  /** A file of the repository, as text. */
  read(path: string): string {
    return readFileSync(join(this.root, path), 'utf8');
  }

  /** Whether a path from the repository root names a file or (with a trailing slash) a folder; `*` matches within one name. */
  exists(path: string): boolean {
    if (path.includes('*')) {
      const pattern = new RegExp(`^${path.split('*').map(escape).join('[^/]*')}${path.endsWith('/') ? '' : '(/|$)'}`);
      return this.files.some((file) => pattern.test(file));
    }
    const absolute = join(this.root, path);
    return existsSync(absolute) && (!path.endsWith('/') || statSync(absolute).isDirectory());
  }

  private anchorsOf(page: string): Set<string> {
    let anchors = this.anchorsByPage.get(page);
    if (!anchors) {
      anchors = anchorsIn(this.read(page));
      this.anchorsByPage.set(page, anchors);
    }
    return anchors;
  }
}

/** The anchors GitHub gives a page: one per heading (a repeated one gets `-1`, `-2` …), and `<a id>`/`<a name>`. */
export function anchorsIn(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    if (fenced) continue;
    for (const [, name] of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(name);
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const slug = slugOf(heading[1]);
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${String(count)}`);
  }
  return anchors;
}

/** GitHub's heading slug: the text without its Markdown, lower case, punctuation dropped, each space a hyphen. */
export function slugOf(heading: string): string {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

function walk(root: string, folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    if (NOT_WALKED.has(entry.name)) return [];
    const path = join(folder, entry.name);
    return entry.isDirectory() ? walk(root, path) : [relative(root, path).split(sep).join('/')];
  });
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
