// @ts-check
// Partners: search and list, create, KYC, key regeneration, settings, and wallet credits that are
// reviewed, then confirmed once with an Idempotency-Key.
import { ApiError, api, may, seg, session } from './api.js';
import {
  $,
  cell,
  confirmed,
  fail,
  formQuery,
  guarded,
  notify,
  onClick,
  onSubmit,
  pickable,
  showSecret,
  when,
} from './page.js';

export async function loadPartners() {
  const params = formQuery('partner-filters');
  const page = await api('GET', `/partners?${params}`);
  const body = $('partners');
  body.replaceChildren();
  for (const partner of page.partners) {
    const row = document.createElement('tr');
    row.dataset.partnerId = partner.partner_id;
    row.tabIndex = 0;
    row.className = 'pick';
    row.append(
      cell('td', when(partner.created_at)),
      cell('td', partner.partner_id, 'mono'),
      cell('td', partner.name),
      cell('td', partner.corridor),
      cell('td', partner.kyc_status, `kyc ${partner.kyc_status}`),
    );
    pickable(row, () => showPartner(partner.partner_id));
    body.append(row);
  }
  $('partners-empty').hidden = page.partners.length > 0;
}

/** @param {string} partnerId */
async function showPartner(partnerId) {
  const partner = await api('GET', `/partners/${seg(partnerId)}`);
  session.partner = partner;
  $('partner-name').textContent = partner.name;
  $('partner-id').textContent = partner.partner_id;
  const fields = $('partner-fields');
  fields.replaceChildren();
  const balance = (/** @type {any} */ wallet) =>
    wallet ? `${wallet.available} ${wallet.currency} (as of ${when(wallet.updated_at)} UTC)` : 'no wallet yet';
  for (const [name, value] of [
    ['Corridor', partner.corridor],
    ['KYC', partner.kyc_status],
    ['Created (UTC)', when(partner.created_at)],
    ['Sandbox wallet', balance(partner.balances.sandbox)],
    ['Live wallet', balance(partner.balances.live)],
  ]) {
    fields.append(cell('dt', name), cell('dd', value));
  }
  fields.querySelectorAll('dd')[1].className = `kyc ${partner.kyc_status}`;
  $('credit-currency').textContent = { IN: 'INR', BD: 'BDT', SG: 'SGD' }[/** @type {'IN'} */ (partner.corridor)] ?? '';
  $('kyc-approve').disabled = partner.kyc_status === 'approved';
  $('kyc-suspend').disabled = partner.kyc_status === 'suspended';
  $('partner-detail').hidden = false;
  await loadSettings();
}

export async function reloadPartner() {
  if (session.partner) await showPartner(session.partner.partner_id);
}

/** @param {'approved' | 'suspended'} status */
async function changeKyc(status) {
  const partner = session.partner;
  if (!partner) return;
  const question =
    status === 'approved'
      ? may('issue_credentials')
        ? `Approve KYC of ${partner.name}? Their live wallet starts moving real money, and a live API key is issued (shown once).`
        : `Approve KYC of ${partner.name}? Their live wallet starts moving real money; they claim their live API key with their sandbox key.`
      : `Suspend ${partner.name}? Their live key stops working at once.`;
  if (!confirmed(question)) return;
  const answer = await api('POST', `/partners/${seg(partner.partner_id)}/kyc`, { body: { status } });
  if (typeof answer.live_api_key === 'string') showSecret(`Live API key of ${partner.name}.`, answer.live_api_key);
  notify(status === 'approved' ? `KYC of ${partner.name} approved.` : `${partner.name} suspended.`);
  await Promise.all([reloadPartner(), loadPartners()]);
}

async function createPartner() {
  const form = /** @type {HTMLFormElement} */ ($('create-partner'));
  const name = $('new-partner-name').value.trim();
  const corridor = $('new-partner-corridor').value;
  const created = await api('POST', '/partners', { body: { name, corridor } });
  form.reset();
  const shown = typeof created.sandbox_api_key === 'string';
  if (shown) showSecret(`Sandbox API key of ${name}.`, created.sandbox_api_key);
  notify(
    shown
      ? `Partner ${name} created (${created.partner_id}).`
      : `Partner ${name} created (${created.partner_id}); an owner issues its sandbox key (Regenerate key): only owners see partners' keys.`,
  );
  await Promise.all([loadPartners(), showPartner(created.partner_id)]);
}

async function regenerateKey() {
  const partner = session.partner;
  if (!partner) return;
  const environment = /** @type {HTMLSelectElement} */ ($('key-form').elements.namedItem('environment')).value;
  if (
    !confirmed(
      `Regenerate the ${environment} API key of ${partner.name}? Their current ${environment} key stops working at once, and so do their ${environment} restricted keys.`,
    )
  )
    return;
  const answer = await api('POST', `/partners/${seg(partner.partner_id)}/keys/regenerate`, { body: { environment } });
  showSecret(`New ${environment} API key of ${partner.name}.`, answer.api_key);
  /** @type {{ key_id: string, label: string }[]} */
  const revoked = Array.isArray(answer.revoked_restricted_keys) ? answer.revoked_restricted_keys : [];
  const restricted = revoked.length
    ? ` ${revoked.length} restricted key(s) revoked with it: ${revoked.map((key) => `${key.label} (${key.key_id})`).join(', ')}.`
    : '';
  notify(`The ${environment} key of ${partner.name} was replaced.${restricted}`);
}

// ---- partner settings ----

async function loadSettings() {
  const partner = session.partner;
  if (!partner) return;
  $('settings-fieldset').disabled = true;
  const environment = $('settings-environment').value;
  showSettings(await api('GET', `/partners/${seg(partner.partner_id)}/settings?environment=${seg(environment)}`));
}

/** @param {Record<string, any>} settings */
function showSettings(settings) {
  $('settings-webhook').value = settings.webhook_url ?? '';
  $('settings-allowlist').value = settings.ip_allowlist.join('\n');
  $('settings-rate').value = String(settings.rate_limit_ceiling_per_minute);
  $('settings-rate').dataset.loaded = String(settings.rate_limit_ceiling_per_minute);
  $('settings-partner-rate').textContent = `The partner's own limit: ${settings.rate_limit_per_minute} a minute.`;
  const rotation = settings.previous_webhook_secret_valid_until
    ? ` The previous secret also signs until ${when(settings.previous_webhook_secret_valid_until)} UTC.`
    : '';
  $('settings-state').textContent =
    (settings.webhook_secret_set
      ? 'A webhook secret is set.'
      : may('issue_credentials')
        ? 'No webhook secret yet: saving a URL creates one.'
        : 'No webhook secret yet: the partner sets its first webhook URL, which creates it.') + rotation;
  if (typeof settings.webhook_secret === 'string')
    showSecret(`Webhook secret of ${session.partner?.name ?? ''} (${settings.environment}).`, settings.webhook_secret);
  // Until the settings are on screen, the form cannot send empty fields over the saved ones; a role that
  // may not change partners sees them read-only.
  $('settings-fieldset').disabled = !may('manage_partners');
}

/** @param {Record<string, unknown>} change @param {string} done */
async function saveSettings(change, done) {
  const partner = session.partner;
  if (!partner) return;
  const environment = $('settings-environment').value;
  showSettings(
    await api('PATCH', `/partners/${seg(partner.partner_id)}/settings`, { body: { environment, ...change } }),
  );
  notify(done);
}

// ---- credits: review, then confirm once ----

function reviewCredit() {
  const partner = session.partner;
  if (!partner) return;
  const form = /** @type {HTMLFormElement} */ ($('credit-form'));
  const field = (/** @type {string} */ name) =>
    /** @type {HTMLInputElement} */ (form.elements.namedItem(name)).value.trim();
  const amount = field('amount');
  if (!/^\d{1,15}(\.\d{1,4})?$/.test(amount) || /^[0.]+$/.test(amount)) {
    fail(new ApiError(400, 'validation_failed', 'amount: a positive decimal such as 2500.00', null));
    return;
  }
  session.creditKey = newIdempotencyKey();
  $('credit-summary').textContent =
    `Credit ${amount} ${$('credit-currency').textContent} to the ${field('environment')} wallet of ${partner.name} (${partner.partner_id}), reference “${field('reference')}”?`;
  $('credit-fieldset').disabled = true;
  $('credit-go').disabled = false;
  $('credit-confirm').hidden = false;
}

function cancelCredit() {
  session.creditKey = null;
  $('credit-confirm').hidden = true;
  $('credit-fieldset').disabled = false;
}

async function confirmCredit() {
  const partner = session.partner;
  const key = session.creditKey;
  if (!partner || !key) return;
  const form = /** @type {HTMLFormElement} */ ($('credit-form'));
  const field = (/** @type {string} */ name) =>
    /** @type {HTMLInputElement} */ (form.elements.namedItem(name)).value.trim();
  $('credit-go').disabled = true;
  let credited;
  try {
    credited = await api('POST', `/partners/${seg(partner.partner_id)}/wallet-credits`, {
      body: { environment: field('environment'), amount: field('amount'), reference: field('reference') },
      headers: { 'Idempotency-Key': key },
    });
  } catch (error) {
    // The same key stays: confirming again after a lost answer credits once.
    $('credit-go').disabled = false;
    throw error;
  }
  session.creditKey = null;
  $('credit-confirm').hidden = true;
  $('credit-fieldset').disabled = false;
  form.reset();
  notify(
    `Credited ${credited.amount} ${credited.currency} to the ${credited.environment} wallet of ${partner.name}; available ${credited.available} ${credited.currency}.`,
  );
  await reloadPartner();
}

/** A key for one confirmed credit: a retry or a second click sends the same one, so the wallet is credited once. */
function newIdempotencyKey() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `console-${Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')}`;
}

export function wirePartners() {
  onSubmit('partner-filters', loadPartners);
  onSubmit('create-partner', createPartner);
  onClick('kyc-approve', () => changeKyc('approved'));
  onClick('kyc-suspend', () => changeKyc('suspended'));
  onSubmit('key-form', regenerateKey);
  $('settings-environment').addEventListener('change', guarded(loadSettings));
  onSubmit('settings-form', () => {
    const url = $('settings-webhook').value.trim();
    const allowlist = $('settings-allowlist')
      .value.split(/[\s,]+/)
      .filter(Boolean);
    // The ceiling is sent only when changed: sending it sets the partner's own limit to it too.
    const rate = $('settings-rate').value;
    const ceiling = rate === $('settings-rate').dataset.loaded ? {} : { rate_limit: Number(rate) };
    return saveSettings(
      { webhook_url: url === '' ? null : url, ip_allowlist: allowlist, ...ceiling },
      'Settings saved.',
    );
  });
  onClick('rotate-webhook-secret', async () => {
    if (!confirmed('Rotate the webhook secret? The current one keeps signing for 24 hours, then stops.')) return;
    await saveSettings(
      { rotate_webhook_secret: true },
      'Webhook secret rotated; the previous one keeps signing for 24 hours.',
    );
  });
  onSubmit('credit-form', reviewCredit);
  onClick('credit-go', confirmCredit);
  onClick('credit-cancel', cancelCredit);
}
