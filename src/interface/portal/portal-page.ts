import { join } from 'node:path';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { WebPage, serveWebPage } from '../shared/web/serve-web-page';

const PORTAL_PATH = '/portal';

/** The partner portal: the shared skeleton with its parts, tab panels and script modules (the build copies `public/`). */
const PORTAL_PAGE: WebPage = {
  path: PORTAL_PATH,
  title: 'Partner portal',
  script: 'portal.js',
  stylesheet: 'portal.css',
  icon: 'favicon.svg',
  noscript: 'The portal needs JavaScript. Everything it shows is also in the API: see <a href="/docs">/docs</a>.',
  signIn: {
    intro: `Sign in with an API key. A sandbox key (<code>svc_test_…</code>) shows the sandbox wallet and settings, a live key (<code>svc_live_…</code>) the live ones.
The key stays in this tab's memory only and is sent to this service alone; closing or reloading the tab forgets it.`,
    field: { id: 'api-key', label: 'API key', maxLength: 200 },
    credential: 'key',
  },
  signedIn: 'portal',
  header: `<div>
  <span id="environment" class="badge"></span>
  <span id="partner-id" class="muted"></span>
</div>
<div class="balance">
  <span class="muted">Available</span>
  <strong id="balance"></strong>
  <span id="balance-updated" class="muted"></span>
</div>`,
  aboveNotices: '<p id="low-balance" class="warning" role="alert" hidden></p>',
  tabs: [
    { name: 'transactions', label: 'Transactions' },
    { name: 'events', label: 'Events' },
    { name: 'webhooks', label: 'Webhooks' },
    { name: 'keys', label: 'Keys' },
    { name: 'access', label: 'Settings' },
  ],
  folder: join(__dirname, 'public'),
  files: [
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
  ],
};

/** GET /portal: a static page calling the partner API with the key signed in with; it holds no data of its own. */
export function servePortal(app: NestFastifyApplication): void {
  serveWebPage(app, PORTAL_PAGE);
}
