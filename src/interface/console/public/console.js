// @ts-check
// The operator and finance console: a thin client of the back office API (/v1/admin), signed in
// with the operator token and the operator's name (recorded as the actor of every action). This
// module signs in and out, switches pages and wires each page's module; every value from the API
// is written as text, never as HTML.
import { StaleReply, session } from './api.js';
import { $, describe, fail, guarded, onClick, whenTokenRefused } from './page.js';
import { loadPartners, reloadPartner, wirePartners } from './partners.js';
import { loadHeld, searchOrders, wireOrders } from './orders.js';
import { loadDeliveries, wireWebhooks } from './webhooks.js';
import { wireFinance } from './finance.js';
import { loadJobs, loadProjections } from './engineering.js';
import { loadOverview } from './overview.js';

/** What each tab shows when opened or refreshed. @type {Record<string, () => Promise<unknown>>} */
const VIEWS = {
  overview: () => loadOverview(),
  partners: () => Promise.all([loadPartners(), reloadPartner()]),
  orders: () => Promise.all([loadHeld(), searchOrders()]),
  webhooks: () => loadDeliveries(),
  finance: async () => undefined,
  engineering: () => Promise.all([loadProjections(), loadJobs()]),
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
  for (const tab of document.querySelectorAll('[role=tab]')) {
    const chosen = /** @type {HTMLElement} */ (tab).dataset.tab === name;
    tab.setAttribute('aria-selected', String(chosen));
    $(`tab-${/** @type {HTMLElement} */ (tab).dataset.tab}`).hidden = !chosen;
  }
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
  session.operator = null;
  clearPage();
  $('console').hidden = true;
  $('sign-in').hidden = false;
  $('operator-token').value = '';
  $('sign-in-error').textContent = why ?? '';
  $('sign-in-error').hidden = !why;
}

async function signIn() {
  const token = $('operator-token').value.trim();
  const operator = $('operator-id').value.trim();
  if (!/^[\w.@-]{1,64}$/.test(operator)) {
    $('sign-in-error').textContent =
      'Your name: 1 to 64 letters, digits or . _ @ - (it is recorded as the actor of your actions).';
    $('sign-in-error').hidden = false;
    return;
  }
  clearPage();
  session.token = token;
  session.operator = operator;
  const landing = linkedTab();
  try {
    // Any back office read checks the token; this one also fills the first page (Finance loads nothing by itself).
    await (landing === 'finance' ? loadPartners() : VIEWS[landing]());
  } catch (error) {
    if (error instanceof StaleReply) return;
    session.token = null;
    session.operator = null;
    $('sign-in-error').textContent = describe(error);
    $('sign-in-error').hidden = false;
    return;
  }
  $('operator-token').value = '';
  $('sign-in-error').hidden = true;
  $('sign-in').hidden = true;
  $('console').hidden = false;
  $('operator-name').textContent = operator;
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
});
