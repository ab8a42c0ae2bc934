import { join } from 'node:path';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { WebPage, serveWebPage } from '../shared/web/serve-web-page';

const CONSOLE_PATH = '/console';

/** The operator console: the shared skeleton with its parts, tab panels and script modules (the build copies `public/`). */
const CONSOLE_PAGE: WebPage = {
  path: CONSOLE_PATH,
  title: 'Operator console',
  script: 'console.js',
  stylesheet: 'console.css',
  icon: 'favicon.svg',
  noscript:
    'The console needs JavaScript. Everything it does is also in the operator CLI (<code>npm run cli</code>) and the back office API under <code>/v1/admin</code>.',
  signIn: {
    intro: `Sign in with your operator token (<code>op_…</code>, given to you once by an owner with <code>operator create</code>). Everything you do here is recorded under
the token's operator, and the page offers what your role may do. The token stays in this tab's memory only and is sent to this service alone; closing or
reloading the tab forgets it. The break-glass owner token (<code>ADMIN_TOKEN</code>) also works, and is recorded as <code>break-glass</code>.`,
    field: { id: 'operator-token', label: 'Operator token', maxLength: 500 },
    credential: 'token',
  },
  signedIn: 'console',
  header: `<div>
  <strong>Operator console</strong>
  <span class="muted">signed in as</span> <span id="operator-name" class="badge operator"></span> <span id="operator-role" class="badge"></span>
</div>`,
  belowNotices: `<div id="secret" class="secret" hidden>
  <p><strong id="secret-title"></strong> Shown once: store it now, the service keeps only its hash (or sealed copy) and will not show it again.</p>
  <code id="secret-value"></code>
  <button id="secret-done" type="button">I have stored it</button>
</div>`,
  tabs: [
    { name: 'overview', label: 'Overview' },
    { name: 'partners', label: 'Partners' },
    { name: 'orders', label: 'Orders' },
    { name: 'webhooks', label: 'Webhooks' },
    { name: 'finance', label: 'Finance' },
    { name: 'engineering', label: 'Engineering' },
    { name: 'operators', label: 'Operators' },
  ],
  folder: join(__dirname, 'public'),
  files: [
    'console.js',
    'api.js',
    'page.js',
    'partners.js',
    'orders.js',
    'webhooks.js',
    'finance.js',
    'reconciliation.js',
    'engineering.js',
    'operators.js',
    'overview.js',
    'console.css',
    'favicon.svg',
  ],
};

/** GET /console: a static page calling /v1/admin with the token typed in at sign-in; it holds no data of its own. */
export function serveConsole(app: NestFastifyApplication): void {
  serveWebPage(app, CONSOLE_PAGE);
}
