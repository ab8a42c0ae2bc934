import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { NestFastifyApplication } from '@nestjs/platform-fastify';

export const PORTAL_PATH = '/portal';

/** The portal's files (next to this module; the build copies them into dist), with their content types. */
const FILES: Record<string, { file: string; type: string }> = {
  [PORTAL_PATH]: { file: 'index.html', type: 'text/html; charset=utf-8' },
  [`${PORTAL_PATH}/`]: { file: 'index.html', type: 'text/html; charset=utf-8' },
  [`${PORTAL_PATH}/portal.js`]: { file: 'portal.js', type: 'application/javascript; charset=utf-8' },
  [`${PORTAL_PATH}/portal.css`]: { file: 'portal.css', type: 'text/css; charset=utf-8' },
  [`${PORTAL_PATH}/favicon.svg`]: { file: 'favicon.svg', type: 'image/svg+xml' },
};

/**
 * The page holds a live API key in memory, so it may run only its own script, talk only to this
 * service, and never be framed (clickjacking) or leak its address to another site.
 */
const SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  // A page that opened the portal keeps no handle on it (it could navigate it to a look-alike).
  'cross-origin-opener-policy': 'same-origin',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

/**
 * The partner portal at GET /portal: a static page whose script calls the partner API with the
 * key the partner signs in with. It needs no key to load and holds no data of its own.
 */
export function servePortal(app: NestFastifyApplication): void {
  const folder = join(__dirname, 'public');
  const fastify = app.getHttpAdapter().getInstance();
  for (const [path, { file, type }] of Object.entries(FILES)) {
    const content = readFileSync(join(folder, file));
    fastify.get(path, (_, reply) => {
      void reply.headers(SECURITY_HEADERS).type(type).send(content);
    });
  }
}
