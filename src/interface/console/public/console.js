// @ts-check
// The console: a thin client of /v1/admin signed in with an operator's token (the service records the actor and
// refuses what the role may not do). Signs in and out, switches pages; API values are written as text, never HTML.
import { StaleReply, api, session } from './api.js';
import { $, describe, fail, guarded, onClick, selectTab, whenTokenRefused } from './page.js';
import { loadPartners, reloadPartner, wirePartners } from './partners.js';
import { loadHeld, searchOrders, wireOrders } from './orders.js';
import { loadDeliveries, wireWebhooks } from './webhooks.js';
import { wireFinance } from './finance.js';
import { loadReconciliation } from './reconciliation.js';
import { loadJobs, loadProjections } from './engineering.js';
import { loadOverview } from './overview.js';
import { loadOperators, wireOperators } from './operators.js';

/** What each tab shows when opened or refreshed. @type {Record<string, () => Promise<unknown>>} */
const VIEWS = {
  overview: () => loadOverview(),
  partners: () => Promise.all([loadPartners(), reloadPartner()]),
  orders: () => Promise.all([loadHeld(), searchOrders()]),
  webhooks: () => loadDeliveries(),
  finance: () => loadReconciliation(),
  engineering: () => Promise.all([loadProjections(), loadJobs()]),
  operators: () => loadOperators(),
};

let openedTab = 'overview';

/** The page a link names after `#` (`/console#orders`), else the overview, the landing page. */
const linkedTab = () => {
  const name = window.location.hash.slice(1);
  return Object.hasOwn(VIEWS, name) ? name : 'overview';
};

/** @param {string} name */
function openTab(name) {
  openedTab = name;
  // The address names the page, so it can be linked to and comes back on reload (after signing in again).
  if (window.location.hash !== `#${name}`) window.history.replaceState(null, '', `#${name}`);
  selectTab(name);
}

/** @param {string} name */
const showTab = (name) =>
  guarded(async () => {
    openTab(name);
    await VIEWS[name]();
  });

/** Forgets everything a session showed: nothing of one operator's session outlives it. */
function clearPage() {
  session.generation += 1;
  session.partner = null;
  session.order = null;
  session.creditKey = null;
  session.resolution = null;
  for (const element of document.querySelectorAll(
    '#console tbody, #console dl, #report, #verify-breaches, #console .chart-box',
  ))
    element.replaceChildren();
  for (const id of [
    'operator-name',
    'operator-role',
    'notice',
    'failure',
    'secret-title',
    'secret-value',
    'partner-name',
    'partner-id',
    'order-id',
    'order-status',
    'credit-summary',
    'resolve-summary',
    'settings-state',
    'statement-title',
    'statement-verdict',
    'verify-result',
    'rebuild-projection',
    'rebuild-id',
    'rebuild-state',
    'jobs-summary',
    'overview-today',
    'overview-as-of',
    'overview-breaker-policy',
    'operator-audit-summary',
  ]) {
    $(id).textContent = '';
  }
  for (const id of [
    'notice',
    'failure',
    'secret',
    'partner-detail',
    'order-detail',
    'resolve-form',
    'credit-confirm',
    'resolve-confirm',
    'statement',
    'report',
    'rebuild',
    'partners-empty',
    'held-empty',
    'orders-empty',
    'deliveries-empty',
    'overview-corridors-empty',
    'overview-providers-empty',
    'operator-audit-empty',
    'reconciliation-runs-empty',
    'reconciliation-mismatches-empty',
  ]) {
    $(id).hidden = true;
  }
  for (const form of document.querySelectorAll('#console form')) /** @type {HTMLFormElement} */ (form).reset();
  $('credit-fieldset').disabled = false;
  $('resolve-fieldset').disabled = false;
  $('settings-fieldset').disabled = true;
}

/** @param {string} [why] */
function signOut(why) {
  session.token = null;
  session.me = null;
  showPermissions([]);
  clearPage();
  $('console').hidden = true;
  $('sign-in').hidden = false;
  $('operator-token').value = '';
  $('sign-in-error').textContent = why ?? '';
  $('sign-in-error').hidden = !why;
}

/** Marks what the role may do, for the style sheet to show only that (`data-needs`). @param {string[]} permissions */
function showPermissions(permissions) {
  const signedIn = $('console');
  for (const name of [...signedIn.classList].filter((name) => name.startsWith('may-'))) signedIn.classList.remove(name);
  for (const permission of permissions) signedIn.classList.add(`may-${permission}`);
}

async function signIn() {
  const token = $('operator-token').value.trim();
  clearPage();
  session.token = token;
  const landing = linkedTab();
  try {
    // Who the token belongs to (a refused token ends here), then the first page: the overview, or the one the address names.
    session.me = await api('GET', '/operators/me');
    await VIEWS[landing]();
  } catch (error) {
    if (error instanceof StaleReply) return;
    session.token = null;
    session.me = null;
    $('sign-in-error').textContent = describe(error);
    $('sign-in-error').hidden = false;
    return;
  }
  const me = session.me;
  if (!me) return;
  showPermissions(me.permissions);
  $('operator-token').value = '';
  $('sign-in-error').hidden = true;
  $('sign-in').hidden = true;
  $('console').hidden = false;
  $('operator-name').textContent = me.name;
  $('operator-role').textContent = me.break_glass ? 'owner (break-glass token)' : me.role;
  $('operator-role').className = me.break_glass ? 'badge break-glass' : 'badge';
  openTab(landing);
}

document.addEventListener('DOMContentLoaded', () => {
  whenTokenRefused(signOut);
  $('sign-in-form').addEventListener('submit', (/** @type {Event} */ event) => {
    event.preventDefault();
    signIn().catch(fail);
  });
  $('sign-out').addEventListener('click', () => signOut());
  onClick('refresh', async () => {
    await VIEWS[openedTab]();
  });
  for (const tab of document.querySelectorAll('[role=tab]')) {
    tab.addEventListener('click', () => showTab(/** @type {HTMLElement} */ (tab).dataset.tab ?? 'overview')());
  }
  // A link to another page of the console followed while signed in.
  window.addEventListener('hashchange', () => {
    if (session.token && linkedTab() !== openedTab) showTab(linkedTab())();
  });
  onClick('secret-done', () => {
    $('secret-value').textContent = '';
    $('secret').hidden = true;
  });
  window.addEventListener('beforeunload', (event) => {
    // Leaving now would lose a key or secret the service will not show again.
    if (!$('secret').hidden) event.preventDefault();
  });
  // A partner's orders and statement are on other pages.
  onClick('partner-orders', async () => {
    if (!session.partner) return;
    openTab('orders');
    /** @type {HTMLFormElement} */ ($('order-filters')).reset();
    $('order-filters').elements.namedItem('partner_id').value = session.partner.partner_id;
    await Promise.all([loadHeld(), searchOrders()]);
  });
  onClick('partner-statement', () => {
    if (!session.partner) return;
    $('finance-form').elements.namedItem('partner_id').value = session.partner.partner_id;
    openTab('finance');
  });
  wirePartners();
  wireOrders();
  wireWebhooks();
  wireFinance();
  wireOperators();
});
