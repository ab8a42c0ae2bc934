import { join } from 'node:path';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { serveStaticPage } from '../shared/serve-static-pages';

export const PORTAL_PATH = '/portal';

/**
 * The partner portal at GET /portal: a static page whose script calls the partner API with the
 * key the partner signs in with. It needs no key to load and holds no data of its own.
 * (The build copies the files next to this module into dist.)
 */
export function servePortal(app: NestFastifyApplication): void {
  serveStaticPage(app, PORTAL_PATH, join(__dirname, 'public'), [
    'index.html',
    'portal.js',
    'api.js',
    'page.js',
    'balance.js',
    'transactions.js',
    'settings.js',
    'deliveries.js',
    'keys.js',
    'events.js',
    'portal.css',
    'favicon.svg',
  ]);
}
