// @ts-check
// Settings of the key's environment: webhook URL and secret, IP allowlist, rate limit, low-balance threshold.
// The forms stay locked until the settings are on screen, so a refused read cannot save empty fields.
import { api, session } from './api.js';
import { drawLowBalance } from './balance.js';
import { $, notify, onClick, onSubmit, when } from './page.js';

/** @param {Record<string, any>} settings */
export function showSettings(settings) {
  $('partner-id').textContent = settings.partner_id;
  $('webhook-url').value = settings.webhook_url ?? '';
  $('webhook-url').dataset.saved = settings.webhook_url ?? '';
  session.webhookUrl = settings.webhook_url ?? null;
  const rotation = settings.previous_webhook_secret_valid_until
    ? ` The previous secret also signs until ${when(settings.previous_webhook_secret_valid_until)} UTC.`
    : '';
  $('secret-state').textContent =
    (settings.webhook_secret_set ? 'A webhook secret is set.' : 'No webhook secret yet: saving a URL creates one.') +
    rotation;
  $('ip-allowlist').value = settings.ip_allowlist.join('\n');
  $('rate-limit').value = String(settings.rate_limit_per_minute);
  $('rate-limit').max = String(settings.rate_limit_ceiling_per_minute);
  $('rate-limit-ceiling').textContent = String(settings.rate_limit_ceiling_per_minute);
  session.threshold = settings.low_balance_threshold ?? null;
  $('low-balance-threshold').value = settings.low_balance_threshold ?? '';
  $('low-balance-state').textContent = settings.low_balance_threshold
    ? `On: a wallet.low_balance event (webhook and events) when a debit takes the balance below ${settings.low_balance_threshold}.`
    : 'Off: no low-balance notice.';
  drawLowBalance();
  if (typeof settings.webhook_secret === 'string') {
    $('new-secret-value').textContent = settings.webhook_secret;
    $('new-secret').hidden = false;
  }
  $('webhook-fieldset').disabled = false;
  $('access-fieldset').disabled = false;
  $('low-balance-fieldset').disabled = false;
}

export async function loadSettings() {
  showSettings(await api('GET', '/settings'));
}

/** @param {Record<string, unknown>} change @param {string} done */
async function saveSettings(change, done) {
  showSettings(await api('PATCH', '/settings', change));
  notify(done);
}

export function wireSettings() {
  onSubmit('webhook-form', async () => {
    const url = $('webhook-url').value.trim();
    if (
      url === '' &&
      $('webhook-url').dataset.saved &&
      !window.confirm('Remove the webhook? Outcomes will no longer be sent anywhere.')
    )
      return;
    await saveSettings(
      { webhook_url: url === '' ? null : url },
      url === '' ? 'Webhook removed.' : 'Webhook URL saved.',
    );
  });
  onClick('rotate-secret', async () => {
    if (!window.confirm('Rotate the webhook secret? The current one keeps signing for 24 hours, then stops.')) return;
    showSettings(await api('POST', '/settings/webhook-secret/rotate'));
    notify('Webhook secret rotated; the previous one keeps signing for 24 hours.');
  });
  onClick('new-secret-done', () => {
    $('new-secret-value').textContent = '';
    $('new-secret').hidden = true;
  });
  onSubmit('access-form', async () => {
    const allowlist = $('ip-allowlist')
      .value.split(/[\s,]+/)
      .filter(Boolean);
    const rate = Number($('rate-limit').value);
    await saveSettings({ ip_allowlist: allowlist, rate_limit_per_minute: rate }, 'Access settings saved.');
  });
  onSubmit('low-balance-form', async () => {
    const threshold = $('low-balance-threshold').value.trim();
    await saveSettings(
      { low_balance_threshold: threshold === '' ? null : threshold },
      threshold === '' ? 'Low-balance notice turned off.' : `Low-balance threshold set to ${threshold}.`,
    );
  });
}
