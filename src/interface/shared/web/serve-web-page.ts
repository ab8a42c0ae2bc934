import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { PageSkeleton, SHARED_STYLESHEET, pageDocument } from './page-skeleton';

/** A page holding a credential in memory runs only its own script, talks only to this service, is never framed. */
export const STATIC_PAGE_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  // A page that opened this one keeps no handle on it (it could navigate it to a look-alike).
  'cross-origin-opener-policy': 'same-origin',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

// Served under each page's own path from one copy (`public/`): the page stays whole under its path, so a proxy
// that routes `/console` alone still serves all of it.
const SHARED_PAGE_FILES: readonly string[] = [SHARED_STYLESHEET, 'shared-api.js', 'shared-page.js'];

/** The file of a page's folder that holds its tab panels: put into its document, not served by itself. */
const PANELS_FILE = 'panels.html';

const SHARED_FOLDER = join(__dirname, 'public');

const TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  js: 'application/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  svg: 'image/svg+xml',
};

export interface WebPage extends PageSkeleton {
  /** The page's folder: its own files and its panels. */
  folder: string;
  /** The page's own files, served at `path/<file>`: its script modules, style sheet and icon. */
  files: readonly string[];
}

/** Serves a page's document at `path` and `path/`, and its files at `path/<file>`, each read once; nothing else. */
export function serveWebPage(app: NestFastifyApplication, page: WebPage): void {
  for (const file of [page.script, page.stylesheet, page.icon]) {
    if (!page.files.includes(file)) throw new Error(`${page.path}: ${file} is not among the page's files`);
  }
  const taken = page.files.filter((file) => SHARED_PAGE_FILES.includes(file) || file === PANELS_FILE);
  if (taken.length > 0) throw new Error(`${page.path}: ${taken.join(', ')} may not be a page's own file`);

  const document = pageDocument(page, readFileSync(join(page.folder, PANELS_FILE), 'utf8'));
  const files = [
    ...SHARED_PAGE_FILES.map((file) => ({ file, content: readFileSync(join(SHARED_FOLDER, file)) })),
    ...page.files.map((file) => ({ file, content: readFileSync(join(page.folder, file)) })),
  ];
  const fastify = app.getHttpAdapter().getInstance();
  const serve = (path: string, type: string, content: string | Buffer) => {
    fastify.get(path, (_, reply) => {
      void reply.headers(STATIC_PAGE_SECURITY_HEADERS).type(type).send(content);
    });
  };
  serve(page.path, TYPES.html, document);
  serve(`${page.path}/`, TYPES.html, document);
  for (const { file, content } of files) {
    const type = TYPES[file.slice(file.lastIndexOf('.') + 1)];
    if (!type) throw new Error(`no content type for ${file}`);
    serve(`${page.path}/${file}`, type, content);
  }
}
