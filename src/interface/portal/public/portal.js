// @ts-check
// The partner portal: a thin client of the partner API (/v1/partner), authenticated by the key
// the partner types in. The key lives in this closure only (no storage, no cookie), and every
// value from the API is written as text, never as HTML.
'use strict';

(() => {
  const API = '/v1/partner';
  /**
   * The signed-in key, and a generation that changes at every sign-in and sign-out: a reply to a
   * request of an earlier generation is dropped, so one partner's answer never lands on the next
   * partner's screen.
   * @type {{ key: string | null, generation: number, filters: URLSearchParams, cursors: (string | null)[], nextCursor: string | null }}
   */
  const session = { key: null, generation: 0, filters: new URLSearchParams(), cursors: [null], nextCursor: null };

  /** @param {string} id @returns {any} */
  const $ = (id) => document.getElementById(id);

  /** A reply that arrived after its session ended: nothing to show. */
  class StaleReply extends Error {}

  class ApiError extends Error {
    /** @param {number} status @param {string} code @param {string | null} detail @param {string | null} retryAfter */
    constructor(status, code, detail, retryAfter) {
      super(detail ? `${code}: ${detail}` : code);
      this.status = status;
      this.code = code;
      this.retryAfter = retryAfter;
    }
  }

  /** @param {string} method @param {string} path @param {unknown} [body] */
  async function api(method, path, body) {
    const generation = session.generation;
    const current = () => {
      if (generation !== session.generation) throw new StaleReply();
    };
    /** @type {Record<string, string>} */
    const headers = { Authorization: `Bearer ${session.key}` };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    let response;
    try {
      response = await fetch(API + path, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        cache: 'no-store',
        credentials: 'omit',
      });
    } catch {
      current();
      throw new ApiError(0, 'network_error', 'the service did not answer', null);
    }
    const text = await response.text().catch(() => '');
    current();
    let parsed = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = null;
    }
    if (!response.ok) {
      const code = parsed && typeof parsed.error === 'string' ? parsed.error : `http_${response.status}`;
      const detail = parsed && typeof parsed.detail === 'string' ? parsed.detail : null;
      throw new ApiError(response.status, code, detail, response.headers.get('retry-after'));
    }
    return parsed;
  }

  /** @param {unknown} error */
  function describe(error) {
    if (error instanceof ApiError) {
      if (error.code === 'rate_limit_exceeded')
        return `Rate limit reached for this key; try again in ${error.retryAfter ?? 'a few'} seconds.`;
      return error.message;
    }
    return 'Something went wrong in the page; reload it.';
  }

  /** @param {string} text */
  function notify(text) {
    $('failure').hidden = true;
    $('notice').textContent = text;
    $('notice').hidden = false;
  }

  /** @param {unknown} error */
  function fail(error) {
    if (error instanceof StaleReply) return;
    if (error instanceof ApiError && error.status === 401) {
      signOut('The key was refused (invalid_api_key): it may have been regenerated. Sign in again.');
      return;
    }
    $('notice').hidden = true;
    $('failure').textContent = describe(error);
    $('failure').hidden = false;
  }

  /** @param {() => Promise<void>} work */
  const guarded = (work) => () => {
    work().catch(fail);
  };

  /** @param {string} tag @param {string} text @param {string} [className] */
  function cell(tag, text, className) {
    const element = document.createElement(tag);
    element.textContent = text;
    if (className) element.className = className;
    return element;
  }

  /** @param {string | null | undefined} iso */
  const when = (iso) =>
    iso
      ? iso
          .replace('T', ' ')
          .replace(/\.\d+Z$/, 'Z')
          .replace('Z', '')
      : '';

  // ---- balance and header ----

  async function loadBalance() {
    const balance = await api('GET', '/balance');
    $('balance').textContent = `${balance.available} ${balance.currency}`;
    $('balance-updated').textContent = `as of ${when(balance.updated_at)} UTC`;
    const badge = $('environment');
    badge.textContent = balance.environment === 'live' ? 'LIVE: real money' : 'SANDBOX';
    badge.className = `badge ${balance.environment}`;
    return balance;
  }

  // ---- transactions ----

  /** The filters as the partner applied them; "To" is the last day shown, so the API gets the day after. */
  function filtersOfForm() {
    const form = /** @type {HTMLFormElement} */ ($('transaction-filters'));
    const params = new URLSearchParams();
    for (const [name, value] of new FormData(form)) {
      if (typeof value !== 'string' || value.trim() === '') continue;
      const dayAfter =
        name === 'created_to'
          ? new Date(Date.parse(`${value}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10)
          : null;
      params.set(name, dayAfter ?? value.trim());
    }
    return params;
  }

  /** @param {(string | null)[]} cursors the page to show: the last cursor of this stack */
  async function loadTransactions(cursors = session.cursors) {
    const params = new URLSearchParams(session.filters);
    params.set('limit', '20');
    const cursor = cursors[cursors.length - 1];
    if (cursor) params.set('cursor', cursor);
    $('older').disabled = true;
    $('newer').disabled = true;
    let page;
    try {
      page = await api('GET', `/transactions?${params}`);
    } finally {
      $('older').disabled = !session.nextCursor;
      $('newer').disabled = session.cursors.length <= 1;
    }
    session.cursors = cursors;
    const body = $('transactions');
    body.replaceChildren();
    /** @type {Record<string, number>} */
    const byStatus = { PENDING: 0, SUCCESS: 0, FAILED: 0 };
    for (const order of page.transactions) {
      byStatus[order.status] = (byStatus[order.status] ?? 0) + 1;
      const row = document.createElement('tr');
      row.dataset.orderId = order.order_id;
      row.tabIndex = 0;
      row.append(
        cell('td', when(order.created_at)),
        cell('td', order.order_id, 'mono'),
        cell('td', order.phone ?? (order.consumer_number ? `bill ${order.consumer_number}` : '')),
        cell('td', `${order.amount_local} ${order.currency}`, 'number'),
        cell('td', order.status, `status ${order.status.toLowerCase()}`),
        cell('td', order.reference ?? ''),
      );
      row.addEventListener(
        'click',
        guarded(() => showTransaction(order.order_id)),
      );
      row.addEventListener('keydown', (event) => {
        if (event.key === 'Enter') guarded(() => showTransaction(order.order_id))();
      });
      body.append(row);
    }
    drawSummary(byStatus);
    $('transactions-empty').hidden = page.transactions.length > 0;
    session.nextCursor = page.next_cursor;
    $('older').disabled = !page.next_cursor;
    $('newer').disabled = session.cursors.length <= 1;
  }

  /** A bar per status for the page on screen, drawn as SVG. @param {Record<string, number>} byStatus */
  function drawSummary(byStatus) {
    const svgNs = 'http://www.w3.org/2000/svg';
    const total = Object.values(byStatus).reduce((sum, count) => sum + count, 0);
    const svg = document.createElementNS(svgNs, 'svg');
    svg.setAttribute('viewBox', '0 0 300 16');
    svg.setAttribute('role', 'img');
    let x = 0;
    const labels = [];
    for (const [status, count] of Object.entries(byStatus)) {
      labels.push(`${status} ${count}`);
      if (!count) continue;
      const width = (300 * count) / total;
      const bar = document.createElementNS(svgNs, 'rect');
      bar.setAttribute('x', String(x));
      bar.setAttribute('width', String(width));
      bar.setAttribute('height', '16');
      bar.setAttribute('class', `bar ${status.toLowerCase()}`);
      svg.append(bar);
      x += width;
    }
    const title = document.createElementNS(svgNs, 'title');
    title.textContent = labels.join(', ');
    svg.prepend(title);
    $('status-summary').replaceChildren(svg, cell('span', labels.join(' · '), 'muted'));
  }

  /** @param {string} orderId */
  async function showTransaction(orderId) {
    const order = await api('GET', `/transactions/${encodeURIComponent(orderId)}`);
    $('detail-order-id').textContent = order.order_id;
    const fields = $('detail-fields');
    fields.replaceChildren();
    for (const [name, value] of Object.entries(order)) {
      if (name === 'order_id') continue;
      fields.append(cell('dt', name), cell('dd', value === null ? '—' : String(value)));
    }
    $('transaction-detail').hidden = false;
  }

  // ---- webhooks ----

  /** @param {Record<string, any>} settings */
  function showSettings(settings) {
    $('partner-id').textContent = settings.partner_id;
    $('webhook-url').value = settings.webhook_url ?? '';
    $('webhook-url').dataset.saved = settings.webhook_url ?? '';
    const rotation = settings.previous_webhook_secret_valid_until
      ? ` The previous secret also signs until ${when(settings.previous_webhook_secret_valid_until)} UTC.`
      : '';
    $('secret-state').textContent =
      (settings.webhook_secret_set ? 'A webhook secret is set.' : 'No webhook secret yet: saving a URL creates one.') +
      rotation;
    $('ip-allowlist').value = settings.ip_allowlist.join('\n');
    $('rate-limit').value = String(settings.rate_limit_per_minute);
    if (typeof settings.webhook_secret === 'string') {
      $('new-secret-value').textContent = settings.webhook_secret;
      $('new-secret').hidden = false;
    }
    // Until the settings are on screen, the forms cannot send empty fields over the saved ones.
    $('webhook-fieldset').disabled = false;
    $('access-fieldset').disabled = false;
  }

  async function loadSettings() {
    showSettings(await api('GET', '/settings'));
  }

  async function loadDeliveries() {
    const state = /** @type {HTMLSelectElement} */ ($('delivery-filters').elements.namedItem('state')).value;
    const page = await api('GET', `/webhook-deliveries${state ? `?state=${encodeURIComponent(state)}` : ''}`);
    const body = $('deliveries');
    body.replaceChildren();
    for (const delivery of page.deliveries) {
      const last = delivery.attempts[delivery.attempts.length - 1];
      const answer = !last
        ? ''
        : last.status_code !== null
          ? `HTTP ${last.status_code} in ${last.latency_ms} ms`
          : (last.error ?? '');
      const row = document.createElement('tr');
      row.append(
        cell('td', when(delivery.created_at)),
        cell('td', delivery.event),
        cell('td', delivery.order_id, 'mono'),
        cell('td', delivery.state, `state ${delivery.state.toLowerCase()}`),
        cell('td', String(delivery.attempts.length), 'number'),
        cell('td', answer),
      );
      body.append(row);
    }
    $('deliveries-empty').textContent = state ? `No ${state} deliveries.` : 'No deliveries yet.';
    $('deliveries-empty').hidden = page.deliveries.length > 0;
  }

  /** @param {Record<string, unknown>} change @param {string} done */
  async function saveSettings(change, done) {
    showSettings(await api('PATCH', '/settings', change));
    notify(done);
  }

  // ---- navigation and session ----

  /** @param {string} name */
  function openTab(name) {
    for (const tab of document.querySelectorAll('[role=tab]')) {
      const chosen = /** @type {HTMLElement} */ (tab).dataset.tab === name;
      tab.setAttribute('aria-selected', String(chosen));
      $(`tab-${/** @type {HTMLElement} */ (tab).dataset.tab}`).hidden = !chosen;
    }
  }

  /** Everything below the header; the balance is loaded first, by sign-in or Refresh. */
  const loadViews = () => Promise.all([loadSettings(), loadTransactions(), loadDeliveries()]);

  async function loadAll() {
    await loadBalance();
    await loadViews();
  }

  /** Forgets everything a session showed: nothing of one key's answers outlives it. */
  function clearPage() {
    session.generation += 1;
    session.filters = new URLSearchParams();
    session.cursors = [null];
    session.nextCursor = null;
    for (const id of ['transactions', 'deliveries', 'detail-fields', 'status-summary']) $(id).replaceChildren();
    for (const id of [
      'balance',
      'balance-updated',
      'environment',
      'partner-id',
      'secret-state',
      'new-secret-value',
      'notice',
      'failure',
      'detail-order-id',
    ])
      $(id).textContent = '';
    for (const id of [
      'notice',
      'failure',
      'new-secret',
      'transaction-detail',
      'transactions-empty',
      'deliveries-empty',
    ])
      $(id).hidden = true;
    for (const id of ['transaction-filters', 'delivery-filters', 'webhook-form', 'access-form'])
      /** @type {HTMLFormElement} */ ($(id)).reset();
    $('webhook-url').dataset.saved = '';
    $('environment').className = 'badge';
    $('webhook-fieldset').disabled = true;
    $('access-fieldset').disabled = true;
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
      await loadBalance();
    } catch (error) {
      if (error instanceof StaleReply) return;
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
    await loadViews();
  }

  document.addEventListener('DOMContentLoaded', () => {
    $('sign-in-form').addEventListener('submit', (/** @type {Event} */ event) => {
      event.preventDefault();
      signIn().catch(fail);
    });
    $('sign-out').addEventListener('click', () => signOut());
    $('refresh').addEventListener('click', guarded(loadAll));
    for (const tab of document.querySelectorAll('[role=tab]')) {
      tab.addEventListener('click', () => openTab(/** @type {HTMLElement} */ (tab).dataset.tab ?? 'transactions'));
    }
    $('transaction-filters').addEventListener('submit', (/** @type {Event} */ event) => {
      event.preventDefault();
      session.filters = filtersOfForm();
      session.cursors = [null];
      session.nextCursor = null;
      guarded(() => loadTransactions([null]))();
    });
    $('older').addEventListener(
      'click',
      guarded(() => loadTransactions([...session.cursors, session.nextCursor])),
    );
    $('newer').addEventListener(
      'click',
      guarded(() => loadTransactions(session.cursors.slice(0, -1))),
    );
    $('detail-close').addEventListener('click', () => {
      $('transaction-detail').hidden = true;
    });
    $('webhook-form').addEventListener('submit', (/** @type {Event} */ event) => {
      event.preventDefault();
      const url = $('webhook-url').value.trim();
      if (
        url === '' &&
        $('webhook-url').dataset.saved &&
        !window.confirm('Remove the webhook? Outcomes will no longer be sent anywhere.')
      )
        return;
      guarded(() =>
        saveSettings({ webhook_url: url === '' ? null : url }, url === '' ? 'Webhook removed.' : 'Webhook URL saved.'),
      )();
    });
    $('rotate-secret').addEventListener(
      'click',
      guarded(async () => {
        if (!window.confirm('Rotate the webhook secret? The current one keeps signing for 24 hours, then stops.'))
          return;
        showSettings(await api('POST', '/settings/webhook-secret/rotate'));
        notify('Webhook secret rotated; the previous one keeps signing for 24 hours.');
      }),
    );
    window.addEventListener('beforeunload', (event) => {
      // Leaving now would lose a secret the service will not show again.
      if (!$('new-secret').hidden) event.preventDefault();
    });
    $('new-secret-done').addEventListener('click', () => {
      $('new-secret-value').textContent = '';
      $('new-secret').hidden = true;
    });
    $('delivery-filters').addEventListener('submit', (/** @type {Event} */ event) => {
      event.preventDefault();
      guarded(loadDeliveries)();
    });
    $('access-form').addEventListener('submit', (/** @type {Event} */ event) => {
      event.preventDefault();
      const allowlist = $('ip-allowlist')
        .value.split(/[\s,]+/)
        .filter(Boolean);
      const rate = Number($('rate-limit').value);
      guarded(() => saveSettings({ ip_allowlist: allowlist, rate_limit_per_minute: rate }, 'Access settings saved.'))();
    });
  });
})();
