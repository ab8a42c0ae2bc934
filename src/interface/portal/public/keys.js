// @ts-check
// Restricted keys of the key's environment (the main key manages them): create, shown once; list; revoke.
// With the sandbox main key, the first live key is claimed here once KYC is approved.
import { ApiError, api, seg } from './api.js';
import { $, cell, guarded, notify, onClick, onSubmit, when } from './page.js';

/** @param {string | null | undefined} value */
const orDash = (value) => (value === null || value === undefined || value === '' ? '—' : value);

/** @param {{ type: string, id: string } | null} creator */
const createdBy = (creator) =>
  creator === null
    ? '—'
    : creator.type === 'operator'
      ? `back office: ${creator.id}`
      : creator.type === 'partner_key'
        ? 'you'
        : creator.id;

export async function loadKeys() {
  let list;
  try {
    list = await api('GET', '/keys');
  } catch (error) {
    if (error instanceof ApiError && error.code === 'scope_forbidden') {
      $('keys-managed-elsewhere').hidden = false;
      $('keys-panel').hidden = true;
      return;
    }
    throw error;
  }
  $('keys-managed-elsewhere').hidden = true;
  $('keys-panel').hidden = false;
  $('live-key-claim').hidden = list.environment !== 'sandbox';
  $('key-caps-currency').textContent = list.currency;
  const body = $('keys');
  body.replaceChildren();
  for (const key of list.keys) {
    const caps =
      key.scope === 'read_only'
        ? 'reads only'
        : `per order ${orDash(key.per_order_max)} · 24 h ${orDash(key.daily_max)}`;
    const action = document.createElement('td');
    if (key.status !== 'revoked') {
      const revoke = cell('button', 'Revoke');
      revoke.setAttribute('type', 'button');
      revoke.className = 'danger';
      revoke.addEventListener(
        'click',
        guarded(() => revokeKey(key)),
      );
      action.append(revoke);
    }
    const row = document.createElement('tr');
    row.dataset.keyId = key.key_id;
    row.append(
      cell('td', key.label),
      cell('td', key.key_id, 'mono'),
      cell('td', key.scope),
      cell('td', caps),
      cell('td', key.expires_at ? when(key.expires_at) : 'never'),
      cell('td', key.status, `key-status ${key.status}`),
      cell('td', when(key.created_at)),
      cell('td', createdBy(key.created_by), 'created-by'),
      // `last_used_at` is null for a key never used.
      cell('td', key.last_used_at ? when(key.last_used_at) : 'never', 'last-used'),
      cell('td', `${key.spent_last_24h} ${list.currency}`, 'number'),
      cell('td', String(key.refusals_last_24h), 'number'),
      action,
    );
    body.append(row);
  }
  $('keys-empty').hidden = list.keys.length > 0;
}

/** The form as the API's request: empty optional fields are absent; the expiry day is UTC midnight. */
function keyRequest() {
  const form = /** @type {HTMLFormElement} */ ($('key-form'));
  const field = (/** @type {string} */ name) =>
    /** @type {HTMLInputElement | HTMLSelectElement} */ (form.elements.namedItem(name)).value.trim();
  /** @type {Record<string, unknown>} */
  const request = { label: field('label'), scope: field('scope') };
  if (field('scope') === 'transact') {
    if (field('per_order_max')) request.per_order_max = field('per_order_max');
    if (field('daily_max')) request.daily_max = field('daily_max');
  }
  if (field('expires_on')) request.expires_at = `${field('expires_on')}T00:00:00Z`;
  return request;
}

async function createKey() {
  const created = await api('POST', '/keys', keyRequest());
  /** @type {HTMLFormElement} */ ($('key-form')).reset();
  showCaps();
  $('new-key-title').textContent = `Restricted key “${created.label}” (${created.scope}).`;
  $('new-key-value').textContent = created.api_key;
  $('new-key').hidden = false;
  notify(`Key ${created.key_id} created.`);
  await loadKeys();
}

async function claimLiveKey() {
  const claimed = await api('POST', '/live-key');
  $('new-key-title').textContent = `Your live key (${claimed.key_id}).`;
  $('new-key-value').textContent = claimed.api_key;
  $('new-key').hidden = false;
  notify('Live key issued: store it now.');
}

/** @param {Record<string, any>} key */
async function revokeKey(key) {
  if (!window.confirm(`Revoke “${key.label}” (${key.key_id})? Every request with it is refused from now on.`)) return;
  await api('DELETE', `/keys/${seg(key.key_id)}`);
  notify(`Key ${key.key_id} revoked.`);
  await loadKeys();
}

/** Caps apply to transact keys only. */
function showCaps() {
  const scope = /** @type {HTMLSelectElement} */ ($('key-form').elements.namedItem('scope')).value;
  $('key-caps').disabled = scope !== 'transact';
}

export function wireKeys() {
  onSubmit('key-form', createKey);
  onClick('claim-live-key', claimLiveKey);
  $('key-form').elements.namedItem('scope').addEventListener('change', showCaps);
  onClick('new-key-done', () => {
    $('new-key-value').textContent = '';
    $('new-key-title').textContent = '';
    $('new-key').hidden = true;
  });
  showCaps();
}
