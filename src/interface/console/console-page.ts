import { join } from 'node:path';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { serveStaticPage } from '../shared/serve-static-pages';

export const CONSOLE_PATH = '/console';

/**
 * The operator and finance console at GET /console: a static page whose script calls the back
 * office API (/v1/admin) with the operator token typed in at sign-in. It needs no token to load
 * and holds no data of its own. (The build copies the files next to this module into dist.)
 */
export function serveConsole(app: NestFastifyApplication): void {
  serveStaticPage(app, CONSOLE_PATH, join(__dirname, 'public'), [
    'index.html',
    'console.js',
    'api.js',
    'page.js',
    'partners.js',
    'orders.js',
    'webhooks.js',
    'finance.js',
    'engineering.js',
    'overview.js',
    'console.css',
    'favicon.svg',
  ]);
}
