import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { NestFastifyApplication } from '@nestjs/platform-fastify';

/**
 * A page that holds a credential in memory (a partner's API key, the operator token) may run only
 * its own script, talk only to this service, and never be framed (clickjacking) or leak its
 * address to another site.
 */
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

const TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  js: 'application/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  svg: 'image/svg+xml',
};

/**
 * Serves a page's files at `base` (index.html at `base` and `base/`, the others at `base/<file>`),
 * read once from `folder`, with the headers above. Nothing else under `base` is served.
 */
export function serveStaticPage(
  app: NestFastifyApplication,
  base: string,
  folder: string,
  files: readonly string[],
): void {
  const fastify = app.getHttpAdapter().getInstance();
  for (const file of files) {
    const content = readFileSync(join(folder, file));
    const type = TYPES[file.slice(file.lastIndexOf('.') + 1)];
    if (!type) throw new Error(`no content type for ${file}`);
    const paths = file === 'index.html' ? [base, `${base}/`] : [`${base}/${file}`];
    for (const path of paths) {
      fastify.get(path, (_, reply) => {
        void reply.headers(STATIC_PAGE_SECURITY_HEADERS).type(type).send(content);
      });
    }
  }
}
