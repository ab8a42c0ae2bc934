// @ts-check
// The header's balance and the low-balance banner: shown while the available balance is below the threshold
// (compared as decimals), and at once when a wallet.low_balance event arrives.
import { api, session } from './api.js';
import { $, fail, scaled, when } from './page.js';

/** Balance reloads caused by events are at most this often: a busy feed must not spend the key's rate limit. */
const EVENT_RELOAD_GAP_MS = 5_000;
let reloadTimer = /** @type {ReturnType<typeof setTimeout> | null} */ (null);
let lastReloadAt = 0;

export async function loadBalance() {
  const balance = await api('GET', '/balance');
  lastReloadAt = Date.now();
  $('balance').textContent = `${balance.available} ${balance.currency}`;
  $('balance-updated').textContent = `as of ${when(balance.updated_at)} UTC`;
  const badge = $('environment');
  badge.textContent = balance.environment === 'live' ? 'LIVE: real money' : 'SANDBOX';
  badge.className = `badge ${balance.environment}`;
  session.available = balance.available;
  session.currency = balance.currency;
  drawLowBalance();
  return balance;
}

/** Whether `available` is below `threshold` (decimal texts); false when either is missing. @param {string | null} available @param {string | null} threshold */
export function isBelow(available, threshold) {
  if (available === null || threshold === null) return false;
  const balance = scaled(available);
  const limit = scaled(threshold);
  return balance !== null && limit !== null && balance < limit;
}

/** The banner from the balance and threshold on screen; `cause` says what just crossed it. @param {string} [cause] */
export function drawLowBalance(cause) {
  const banner = $('low-balance');
  if (!isBelow(session.available, session.threshold)) {
    banner.hidden = true;
    banner.textContent = '';
    return;
  }
  const currency = session.currency ?? '';
  banner.textContent =
    `Low balance: ${session.available} ${currency} available, below your threshold of ${session.threshold} ${currency}.` +
    (cause ? ` ${cause}` : '') +
    ' Fund the wallet to keep orders going.';
  banner.hidden = false;
}

/** A wallet.low_balance event: the banner at once from the event, then the balance read again. @param {Record<string, any>} event */
export function lowBalanceReached(event) {
  session.available = String(event.available_balance);
  session.threshold = String(event.low_balance_threshold);
  session.currency = String(event.currency);
  $('balance').textContent = `${session.available} ${session.currency}`;
  drawLowBalance(`Order ${String(event.order_id)} took it below at ${when(String(event.occurred_at))} UTC.`);
  reloadSoon();
}

/** Reads the balance again after an event that moved it, at most once every few seconds. */
export function reloadSoon() {
  if (reloadTimer !== null) return;
  const wait = Math.max(0, lastReloadAt + EVENT_RELOAD_GAP_MS - Date.now());
  reloadTimer = setTimeout(() => {
    reloadTimer = null;
    if (session.key) loadBalance().catch(fail);
  }, wait);
}

/** Forgets pending reloads (sign-out). */
export function stopBalanceReloads() {
  if (reloadTimer !== null) clearTimeout(reloadTimer);
  reloadTimer = null;
  lastReloadAt = 0;
}
