// @ts-check
// The portal: a thin client of /v1/partner signed in with the partner's key (held in api.js only). Signs in and
// out, switches tabs; API values are written as text, never HTML.
import { StaleReply, session } from './api.js';
import { loadBalance, stopBalanceReloads } from './balance.js';
import { loadDeliveries, wireDeliveries } from './deliveries.js';
import { startEvents, stopEvents } from './events.js';
import { loadKeys, wireKeys } from './keys.js';
import { $, describe, fail, guarded, onClick, selectTab, whenKeyRefused } from './page.js';
import { loadSettings, wireSettings } from './settings.js';
import { loadTransactions, wireTransactions } from './transactions.js';

let openedTab = 'transactions';

/** @param {string} name */
function openTab(name) {
  openedTab = name;
  selectTab(name);
}

/** The key list is read when its tab is opened (a restricted key may not read it). */
const tabViews = /** @type {Record<string, () => Promise<unknown>>} */ ({ keys: () => loadKeys() });

/** The header's balance, environment and partner id; the portal shows once both are in, never an empty id. */
const loadHeader = () => Promise.all([loadBalance(), loadSettings()]);

/** Everything below the header, once the header is in. */
const loadViews = () => Promise.all([loadTransactions(), loadDeliveries(), tabViews[openedTab]?.() ?? null]);

async function loadAll() {
  await loadHeader();
  await loadViews();
}

/** Forgets everything a session showed: nothing of one key's answers outlives it. */
function clearPage() {
  session.generation += 1;
  session.filters = new URLSearchParams();
  session.cursors = [null];
  session.nextCursor = null;
  session.webhookUrl = null;
  session.currency = null;
  session.available = null;
  session.threshold = null;
  stopEvents();
  stopBalanceReloads();
  for (const id of ['transactions', 'deliveries', 'detail-fields', 'status-summary', 'keys', 'events'])
    $(id).replaceChildren();
  for (const id of [
    'balance',
    'balance-updated',
    'environment',
    'partner-id',
    'secret-state',
    'new-secret-value',
    'new-key-title',
    'new-key-value',
    'notice',
    'failure',
    'detail-order-id',
    'low-balance',
    'low-balance-state',
    'events-status',
    'key-caps-currency',
  ])
    $(id).textContent = '';
  for (const id of [
    'notice',
    'failure',
    'new-secret',
    'new-key',
    'low-balance',
    'transaction-detail',
    'transactions-empty',
    'deliveries-empty',
    'keys-empty',
    'keys-managed-elsewhere',
  ])
    $(id).hidden = true;
  $('events-empty').hidden = false;
  $('keys-panel').hidden = false;
  for (const id of [
    'transaction-filters',
    'delivery-filters',
    'webhook-form',
    'access-form',
    'low-balance-form',
    'key-form',
  ])
    /** @type {HTMLFormElement} */ ($(id)).reset();
  $('webhook-url').dataset.saved = '';
  $('environment').className = 'badge';
  $('webhook-fieldset').disabled = true;
  $('access-fieldset').disabled = true;
  $('low-balance-fieldset').disabled = true;
  $('older').disabled = true;
  $('newer').disabled = true;
}

/** @param {string} [why] */
function signOut(why) {
  session.key = null;
  clearPage();
  $('portal').hidden = true;
  $('sign-in').hidden = false;
  $('api-key').value = '';
  $('sign-in-error').textContent = why ?? '';
  $('sign-in-error').hidden = !why;
}

async function signIn() {
  const key = $('api-key').value.trim();
  if (!/^svc_(live|test)_[A-Za-z0-9_-]{32}$/.test(key)) {
    $('sign-in-error').textContent =
      'That is not an API key: it starts with svc_live_ or svc_test_ and has 32 more characters.';
    $('sign-in-error').hidden = false;
    return;
  }
  clearPage();
  session.key = key;
  try {
    await loadHeader();
  } catch (error) {
    if (error instanceof StaleReply) return;
    // Nothing of a half-read header stays (the settings may have answered before the balance was refused), the
    // forms stay locked, and the other read's reply, if it is still on its way, is dropped.
    clearPage();
    session.key = null;
    $('sign-in-error').textContent = describe(error);
    $('sign-in-error').hidden = false;
    return;
  }
  $('api-key').value = '';
  $('sign-in-error').hidden = true;
  $('sign-in').hidden = true;
  $('portal').hidden = false;
  openTab('transactions');
  startEvents();
  await loadViews();
}

document.addEventListener('DOMContentLoaded', () => {
  whenKeyRefused(signOut);
  $('sign-in-form').addEventListener('submit', (/** @type {Event} */ event) => {
    event.preventDefault();
    signIn().catch(fail);
  });
  $('sign-out').addEventListener('click', () => signOut());
  onClick('refresh', loadAll);
  for (const tab of document.querySelectorAll('[role=tab]')) {
    tab.addEventListener('click', () => {
      const name = /** @type {HTMLElement} */ (tab).dataset.tab ?? 'transactions';
      openTab(name);
      const view = tabViews[name];
      if (view) guarded(async () => void (await view()))();
    });
  }
  window.addEventListener('beforeunload', (event) => {
    // Leaving now would lose a key or secret the service will not show again.
    if (!$('new-secret').hidden || !$('new-key').hidden) event.preventDefault();
  });
  wireTransactions();
  wireSettings();
  wireDeliveries();
  wireKeys();
});
