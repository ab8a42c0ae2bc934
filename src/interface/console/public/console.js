// @ts-check
// The operator and finance console: a thin client of the back office API (/v1/admin),
// authenticated by the operator token typed in at sign-in, every action recorded under the
// operator's name (X-Operator-Id). The token lives in this closure only (no storage, no cookie),
// and every value from the API is written as text, never as HTML.
'use strict';

(() => {
  const API = '/v1/admin';
  const REBUILD_POLL_MS = 500;
  /**
   * The signed-in operator, and a generation that changes at every sign-in and sign-out: a reply
   * to a request of an earlier generation is dropped, so nothing of one session reaches the next.
   * @type {{ token: string | null, operator: string | null, generation: number, partner: Record<string, any> | null,
   *          order: Record<string, any> | null, creditKey: string | null, resolution: { outcome: string, reason: string } | null }}
   */
  const session = { token: null, operator: null, generation: 0, partner: null, order: null, creditKey: null, resolution: null };

  /** @param {string} id @returns {any} */
  const $ = (id) => document.getElementById(id);

  /** A reply that arrived after its session ended: nothing to show. */
  class StaleReply extends Error {}

  class ApiError extends Error {
    /** @param {number} status @param {string} code @param {string | null} detail @param {any} body */
    constructor(status, code, detail, body) {
      super(detail ? `${code}: ${detail}` : code);
      this.status = status;
      this.code = code;
      this.body = body;
    }
  }

  /**
   * One call to the back office; the answer as text (JSON parsed by `api`).
   * @param {string} method @param {string} path @param {{ body?: unknown, headers?: Record<string, string> }} [options]
   */
  async function call(method, path, options = {}) {
    const generation = session.generation;
    const current = () => {
      if (generation !== session.generation) throw new StaleReply();
    };
    /** @type {Record<string, string>} */
    const headers = { Authorization: `Bearer ${session.token}`, 'X-Operator-Id': session.operator ?? '', ...options.headers };
    if (options.body !== undefined) headers['Content-Type'] = 'application/json';
    let response;
    try {
      response = await fetch(API + path, {
        method,
        headers,
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
        cache: 'no-store',
        credentials: 'omit',
      });
    } catch {
      current();
      throw new ApiError(0, 'network_error', 'the service did not answer', null);
    }
    const text = await response.text().catch(() => '');
    current();
    if (!response.ok) {
      let parsed = null;
      try {
        parsed = text ? JSON.parse(text) : null;
      } catch {
        parsed = null;
      }
      const code = parsed && typeof parsed.error === 'string' ? parsed.error : `http_${response.status}`;
      const detail = parsed && typeof parsed.detail === 'string' ? parsed.detail : null;
      throw new ApiError(response.status, code, detail, parsed);
    }
    return text;
  }

  /** @param {string} method @param {string} path @param {{ body?: unknown, headers?: Record<string, string> }} [options] */
  async function api(method, path, options) {
    const text = await call(method, path, options);
    return text ? JSON.parse(text) : null;
  }

  const seg = encodeURIComponent;

  /** @param {unknown} error */
  function describe(error) {
    if (error instanceof ApiError) return error.message;
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
      signOut('The operator token was refused (invalid_admin_token). Sign in again.');
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

  /** @param {string} question */
  const confirmed = (question) => window.confirm(question);

  /** @param {string} tag @param {string} text @param {string} [className] */
  function cell(tag, text, className) {
    const element = document.createElement(tag);
    element.textContent = text;
    if (className) element.className = className;
    return element;
  }

  /** @param {string | null | undefined} iso */
  const when = (iso) => (iso ? iso.replace('T', ' ').replace(/\.\d+Z$/, 'Z').replace('Z', '') : '');

  /** The form's non-empty fields as query parameters. @param {string} formId @param {string[]} [dayAfter] fields whose last day is inclusive */
  function formQuery(formId, dayAfter = []) {
    const params = new URLSearchParams();
    for (const [name, value] of new FormData(/** @type {HTMLFormElement} */ ($(formId)))) {
      if (typeof value !== 'string' || value.trim() === '') continue;
      const next = dayAfter.includes(name) ? new Date(Date.parse(`${value}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10) : null;
      params.set(name, next ?? value.trim());
    }
    return params;
  }

  /** @param {Record<string, any>} order */
  const recipient = (order) => (order.product?.phone ?? (order.product?.consumerNumber ? `bill ${order.product.consumerNumber}` : ''));

  /** A key for one confirmed credit: a retry or a second click sends the same one, so the wallet is credited once. */
  function newIdempotencyKey() {
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    return `console-${Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')}`;
  }

  /** @param {string} title @param {string} value */
  function showSecret(title, value) {
    $('secret-title').textContent = title;
    $('secret-value').textContent = value;
    $('secret').hidden = false;
  }

  // ---- partners ----

  async function loadPartners() {
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

  /** @param {HTMLElement} row @param {() => Promise<void>} open */
  function pickable(row, open) {
    row.addEventListener('click', guarded(open));
    row.addEventListener('keydown', (event) => {
      if (event.key === 'Enter') guarded(open)();
    });
  }

  /** @param {string} partnerId */
  async function showPartner(partnerId) {
    const partner = await api('GET', `/partners/${seg(partnerId)}`);
    session.partner = partner;
    $('partner-name').textContent = partner.name;
    $('partner-id').textContent = partner.partner_id;
    const fields = $('partner-fields');
    fields.replaceChildren();
    const balance = (/** @type {any} */ wallet) => (wallet ? `${wallet.available} ${wallet.currency} (as of ${when(wallet.updated_at)} UTC)` : 'no wallet yet');
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

  async function reloadPartner() {
    if (session.partner) await showPartner(session.partner.partner_id);
  }

  /** @param {'approved' | 'suspended'} status */
  async function changeKyc(status) {
    const partner = session.partner;
    if (!partner) return;
    const question =
      status === 'approved'
        ? `Approve KYC of ${partner.name}? Their live wallet starts moving real money, and a live API key is issued (shown once).`
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
    showSecret(`Sandbox API key of ${name}.`, created.sandbox_api_key);
    notify(`Partner ${name} created (${created.partner_id}).`);
    await Promise.all([loadPartners(), showPartner(created.partner_id)]);
  }

  async function regenerateKey() {
    const partner = session.partner;
    if (!partner) return;
    const environment = /** @type {HTMLSelectElement} */ ($('key-form').elements.namedItem('environment')).value;
    if (!confirmed(`Regenerate the ${environment} API key of ${partner.name}? Their current ${environment} key stops working at once.`)) return;
    const answer = await api('POST', `/partners/${seg(partner.partner_id)}/keys/regenerate`, { body: { environment } });
    showSecret(`New ${environment} API key of ${partner.name}.`, answer.api_key);
    notify(`The ${environment} key of ${partner.name} was replaced.`);
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
    $('settings-rate').value = String(settings.rate_limit_per_minute);
    const rotation = settings.previous_webhook_secret_valid_until ? ` The previous secret also signs until ${when(settings.previous_webhook_secret_valid_until)} UTC.` : '';
    $('settings-state').textContent = (settings.webhook_secret_set ? 'A webhook secret is set.' : 'No webhook secret yet: saving a URL creates one.') + rotation;
    if (typeof settings.webhook_secret === 'string') showSecret(`Webhook secret of ${session.partner?.name ?? ''} (${settings.environment}).`, settings.webhook_secret);
    // Until the settings are on screen, the form cannot send empty fields over the saved ones.
    $('settings-fieldset').disabled = false;
  }

  /** @param {Record<string, unknown>} change @param {string} done */
  async function saveSettings(change, done) {
    const partner = session.partner;
    if (!partner) return;
    const environment = $('settings-environment').value;
    showSettings(await api('PATCH', `/partners/${seg(partner.partner_id)}/settings`, { body: { environment, ...change } }));
    notify(done);
  }

  // ---- credits: review, then confirm once ----

  function reviewCredit() {
    const partner = session.partner;
    if (!partner) return;
    const form = /** @type {HTMLFormElement} */ ($('credit-form'));
    const field = (/** @type {string} */ name) => /** @type {HTMLInputElement} */ (form.elements.namedItem(name)).value.trim();
    const amount = field('amount');
    if (!/^\d{1,15}(\.\d{1,4})?$/.test(amount) || /^[0.]+$/.test(amount)) {
      fail(new ApiError(400, 'validation_failed', 'amount: a positive decimal such as 2500.00', null));
      return;
    }
    session.creditKey = newIdempotencyKey();
    $('credit-summary').textContent = `Credit ${amount} ${$('credit-currency').textContent} to the ${field('environment')} wallet of ${partner.name} (${partner.partner_id}), reference “${field('reference')}”?`;
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
    const field = (/** @type {string} */ name) => /** @type {HTMLInputElement} */ (form.elements.namedItem(name)).value.trim();
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
    notify(`Credited ${credited.amount} ${credited.currency} to the ${credited.environment} wallet of ${partner.name}; available ${credited.available} ${credited.currency}.`);
    await reloadPartner();
  }

  // ---- orders ----

  /** @param {HTMLElement} body @param {Record<string, any>[]} orders @param {boolean} wide */
  function drawOrders(body, orders, wide) {
    body.replaceChildren();
    for (const order of orders) {
      const row = document.createElement('tr');
      row.dataset.orderId = order.order_id;
      row.tabIndex = 0;
      row.className = 'pick';
      row.append(cell('td', when(order.created_at)), cell('td', order.order_id, 'mono'), cell('td', order.partner_id, 'mono'));
      if (wide) row.append(cell('td', order.environment));
      row.append(cell('td', recipient(order)), cell('td', `${order.amount} ${order.currency}`, 'number'), cell('td', order.status, `status ${order.status.toLowerCase()}`));
      if (wide) row.append(cell('td', order.reference ?? ''));
      pickable(row, () => showOrder(order.order_id));
      body.append(row);
    }
  }

  async function loadHeld() {
    const page = await api('GET', '/orders?held=true&limit=200');
    drawOrders($('held-orders'), page.orders, false);
    $('held-empty').hidden = page.orders.length > 0;
  }

  async function searchOrders() {
    const params = formQuery('order-filters', ['created_to']);
    params.set('limit', '200');
    const page = await api('GET', `/orders?${params}`);
    drawOrders($('orders'), page.orders, true);
    $('orders-empty').hidden = page.orders.length > 0;
  }

  /** @param {string} orderId */
  async function showOrder(orderId) {
    const [order, audit] = await Promise.all([api('GET', `/orders/${seg(orderId)}`), api('GET', `/audit/orders/${seg(orderId)}`)]);
    session.order = order;
    $('order-id').textContent = order.order_id;
    $('order-status').textContent = order.status;
    $('order-status').className = `status ${order.status.toLowerCase()}`;
    const fields = $('order-fields');
    fields.replaceChildren();
    for (const [name, value] of Object.entries(order)) {
      if (name === 'order_id' || name === 'product') continue;
      const shown = value === null ? '—' : typeof value === 'object' ? JSON.stringify(value) : String(value);
      fields.append(cell('dt', name), cell('dd', shown));
    }
    fields.append(cell('dt', 'product'), cell('dd', JSON.stringify(order.product)));
    const timeline = $('order-timeline');
    timeline.replaceChildren();
    for (const event of audit.events) {
      const row = document.createElement('tr');
      row.append(
        cell('td', when(event.occurred_at)),
        cell('td', event.event_type),
        cell('td', `${event.actor.type} ${event.actor.id}`, `actor ${event.actor.type}`),
        cell('td', details(event.data), 'details'),
      );
      timeline.append(row);
    }
    const held = order.status === 'DISPUTED';
    $('resolve-form').hidden = !held;
    if (!held) cancelResolution();
    $('order-detail').hidden = false;
  }

  /** An event's data as `name=value` pairs, nested values as JSON. @param {Record<string, unknown>} data */
  const details = (data) =>
    Object.entries(data)
      .map(([name, value]) => `${name}=${value !== null && typeof value === 'object' ? JSON.stringify(value) : String(value)}`)
      .join(' · ');

  function reviewResolution() {
    const order = session.order;
    if (!order) return;
    const form = /** @type {HTMLFormElement} */ ($('resolve-form'));
    const outcome = /** @type {RadioNodeList} */ (form.elements.namedItem('outcome')).value;
    const reason = $('resolve-reason').value.trim();
    if (!outcome || !reason) {
      fail(new ApiError(400, 'validation_failed', 'choose success or failed, and give the reason', null));
      return;
    }
    session.resolution = { outcome, reason };
    $('resolve-summary').textContent =
      outcome === 'success'
        ? `Resolve ${order.order_id} as SUCCESS: the debit of ${order.amount} ${order.currency} stands. Reason: “${reason}”?`
        : `Resolve ${order.order_id} as FAILED: ${order.amount} ${order.currency} is refunded to ${order.partner_id}. Reason: “${reason}”?`;
    $('resolve-fieldset').disabled = true;
    $('resolve-go').disabled = false;
    $('resolve-confirm').hidden = false;
  }

  function cancelResolution() {
    session.resolution = null;
    $('resolve-confirm').hidden = true;
    $('resolve-fieldset').disabled = false;
  }

  async function confirmResolution() {
    const order = session.order;
    const resolution = session.resolution;
    if (!order || !resolution) return;
    $('resolve-go').disabled = true;
    try {
      await api('POST', `/orders/${seg(order.order_id)}/resolve`, { body: resolution });
    } catch (error) {
      $('resolve-go').disabled = false;
      throw error;
    }
    cancelResolution();
    /** @type {HTMLFormElement} */ ($('resolve-form')).reset();
    notify(`Order ${order.order_id} resolved as ${resolution.outcome === 'success' ? 'SUCCESS' : 'FAILED'}.`);
    await Promise.all([showOrder(order.order_id), loadHeld()]);
  }

  // ---- webhooks ----

  async function loadDeliveries() {
    const params = formQuery('delivery-filters');
    const page = await api('GET', `/webhook-deliveries?${params}`);
    const body = $('deliveries');
    body.replaceChildren();
    for (const delivery of page.deliveries) {
      const row = document.createElement('tr');
      row.dataset.deliveryId = delivery.delivery_id;
      const attempts = document.createElement('td');
      const list = document.createElement('ol');
      list.className = 'attempts';
      for (const attempt of delivery.attempts) {
        const answer = attempt.status_code !== null ? `HTTP ${attempt.status_code} in ${attempt.latency_ms} ms` : (attempt.error ?? '');
        list.append(cell('li', `${when(attempt.attempted_at)} · ${answer}`));
      }
      attempts.append(list);
      const resend = cell('button', 'Re-send');
      resend.setAttribute('type', 'button');
      resend.addEventListener(
        'click',
        guarded(async () => {
          if (!confirmed(`Send ${delivery.event} of ${delivery.order_id} again to ${delivery.url}?`)) return;
          await api('POST', `/webhook-deliveries/${seg(delivery.delivery_id)}/resend`);
          notify(`Delivery ${delivery.delivery_id} scheduled again.`);
          await loadDeliveries();
        }),
      );
      const action = document.createElement('td');
      action.append(resend);
      row.append(
        cell('td', when(delivery.created_at)),
        cell('td', delivery.event),
        cell('td', delivery.order_id, 'mono'),
        cell('td', delivery.environment),
        cell('td', delivery.state, `state ${delivery.state.toLowerCase()}`),
        attempts,
        action,
      );
      body.append(row);
    }
    $('deliveries-empty').hidden = page.deliveries.length > 0;
  }

  // ---- finance ----

  function wallet() {
    const form = /** @type {HTMLFormElement} */ ($('finance-form'));
    const value = (/** @type {string} */ name) => /** @type {HTMLInputElement} */ (form.elements.namedItem(name)).value.trim();
    const partnerId = value('partner_id');
    if (!partnerId) throw new ApiError(400, 'validation_failed', 'partner: choose the wallet first', null);
    return { partnerId, environment: value('environment'), date: value('date') };
  }

  async function loadStatement() {
    const { partnerId, environment, date } = wallet();
    const day = await api('GET', `/audit/statements/${seg(partnerId)}/${seg(environment)}?date=${seg(date)}`);
    $('statement-title').textContent = `${day.partner_id}, ${day.environment}, ${day.date} (${day.currency})`;
    const rows = $('statement-rows');
    rows.replaceChildren();
    for (const [name, value] of [
      ['Opening balance', day.opening_balance],
      [`Debits (${day.counts.debits})`, day.debits],
      [`Refunds (${day.counts.refunds})`, day.refunds],
      [`Credits (${day.counts.credits})`, day.credits],
      ['Closing balance', day.closing_balance],
    ]) {
      const row = document.createElement('tr');
      row.append(cell('th', name), cell('td', value, 'number'));
      rows.append(row);
    }
    $('statement-verdict').textContent = (day.adds_up ? 'Adds up.' : 'Does NOT add up: run verify.') + (day.complete ? '' : ' The day is not over (UTC): figures may still change.');
    $('statement-verdict').className = day.adds_up ? 'notice' : 'error';
    $('statement').hidden = false;
  }

  function period() {
    const form = /** @type {HTMLFormElement} */ ($('report-form'));
    const value = (/** @type {string} */ name) => /** @type {HTMLInputElement} */ (form.elements.namedItem(name)).value;
    const from = value('from');
    const to = value('to');
    if (!from || !to) throw new ApiError(400, 'validation_failed', 'from and to: choose the period first', null);
    return { from, to };
  }

  /** The service's own report page, its body adopted into the console (it has no script; its styles are the console's). */
  async function loadReport() {
    const { partnerId, environment } = wallet();
    const { from, to } = period();
    const html = await call('GET', `/audit/reports/${seg(partnerId)}/${seg(environment)}?from=${seg(from)}&to=${seg(to)}&format=html`);
    // Its inline <style> is left out (this page's policy refuses inline styles); console.css styles its classes instead.
    const parsed = new DOMParser().parseFromString(html.replace(/<style[^>]*>[\s\S]*?<\/style>/gi, ''), 'text/html');
    const report = $('report');
    report.replaceChildren();
    // Moved one by one: adopting a node takes it out of the parsed body's (live) child list.
    while (parsed.body.firstChild) report.append(document.adoptNode(parsed.body.firstChild));
    report.hidden = false;
  }

  /** @param {'csv' | 'jsonl'} format */
  async function exportWallet(format) {
    const { partnerId, environment } = wallet();
    const { from, to } = period();
    const text = await call('GET', `/audit/wallets/${seg(partnerId)}/${seg(environment)}?from=${seg(from)}&to=${seg(to)}&format=${format}`);
    const url = URL.createObjectURL(new Blob([text], { type: format === 'csv' ? 'text/csv' : 'application/x-ndjson' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = `wallet-${partnerId}-${environment}-${from}-${to}.${format}`;
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
    notify(`Exported ${link.download}.`);
  }

  async function verify() {
    $('verify-result').textContent = 'Verifying…';
    $('verify-result').className = 'muted';
    $('verify-breaches').replaceChildren();
    let report;
    try {
      report = await api('GET', '/verify');
    } catch (error) {
      if (!(error instanceof ApiError) || error.code !== 'invariant_breach') {
        $('verify-result').textContent = '';
        throw error;
      }
      report = error.body;
    }
    const breaches = Array.isArray(report.breaches) ? report.breaches : [];
    const checked = Object.entries(report.checked ?? {})
      .map(([name, count]) => `${count} ${name}`)
      .join(', ');
    const inProgress = Array.isArray(report.in_progress) && report.in_progress.length ? `; ${report.in_progress.length} still in progress` : '';
    $('verify-result').textContent = report.ok
      ? `Every money invariant holds (checked ${checked}${inProgress}).`
      : `${breaches.length} breach(es) of the money invariants (checked ${checked}${inProgress}).`;
    $('verify-result').className = report.ok ? 'notice' : 'error';
    for (const breach of breaches) $('verify-breaches').append(cell('li', JSON.stringify(breach)));
  }

  // ---- engineering ----

  async function loadProjections() {
    const status = await api('GET', '/projections');
    const body = $('projections');
    body.replaceChildren();
    for (const projection of status.projections) {
      const row = document.createElement('tr');
      row.dataset.projection = projection.name;
      const checkpoint = projection.checkpoint === null ? '—' : typeof projection.checkpoint === 'object' ? JSON.stringify(projection.checkpoint) : String(projection.checkpoint);
      const action = document.createElement('td');
      if (projection.rebuildable && !projection.rebuilding) {
        const button = cell('button', 'Rebuild');
        button.setAttribute('type', 'button');
        button.addEventListener('click', guarded(() => startRebuild(projection.name)));
        action.append(button);
      } else if (projection.rebuilding) action.append(cell('span', `rebuilding (${projection.rebuilding.phase})`, 'muted'));
      row.append(
        cell('td', projection.name),
        cell('td', projection.group ?? ''),
        cell('td', String(projection.version), 'number'),
        cell('td', checkpoint, 'mono'),
        cell('td', String(projection.lag_events ?? '—'), 'number'),
        cell('td', when(projection.rebuilt_at)),
        action,
      );
      body.append(row);
    }
  }

  /** @param {string} name */
  async function startRebuild(name) {
    if (!confirmed(`Rebuild ${name}? A new copy is built from the event log while the current one keeps answering, then they swap.`)) return;
    const rebuild = await api('POST', `/projections/${seg(name)}/rebuild`);
    notify(`Rebuild of ${name} started.`);
    await watchRebuild(rebuild);
  }

  /** Follows a rebuild until it ends; a sign-out in between ends the watch (its next reply is stale). @param {Record<string, any>} rebuild */
  async function watchRebuild(rebuild) {
    for (let current = rebuild; ; ) {
      $('rebuild').hidden = false;
      $('rebuild-projection').textContent = current.projection;
      $('rebuild-id').textContent = current.rebuild_id;
      const total = Number(current.events_total) || 0;
      const done = Number(current.events_applied) || 0;
      $('rebuild-progress').max = Math.max(total, 1);
      $('rebuild-progress').value = current.state === 'completed' ? Math.max(total, 1) : done;
      const eta = current.eta_seconds === null || current.eta_seconds === undefined ? '' : `, about ${current.eta_seconds} s left`;
      $('rebuild-state').textContent =
        current.state === 'running'
          ? `${current.phase}: ${done} of ${total} events${eta}`
          : current.state === 'completed'
            ? `Completed at ${when(current.finished_at)} UTC: version ${current.version_before} → ${current.version_after}, ${done} events.`
            : `Failed: ${current.error ?? 'see the service log'}`;
      $('rebuild-state').className = current.state === 'failed' ? 'error' : current.state === 'completed' ? 'notice' : '';
      await loadProjections();
      if (current.state !== 'running') return;
      const generation = session.generation;
      await new Promise((resolve) => setTimeout(resolve, REBUILD_POLL_MS));
      if (generation !== session.generation) throw new StaleReply();
      current = await api('GET', `/projections/rebuilds/${seg(current.rebuild_id)}`);
    }
  }

  async function loadJobs() {
    const backlog = await api('GET', '/jobs');
    $('jobs-summary').textContent = `${backlog.open} open, ${backlog.due} due, as of ${when(backlog.as_of)} UTC.`;
    const body = $('jobs');
    body.replaceChildren();
    for (const line of backlog.kinds) {
      const row = document.createElement('tr');
      row.append(
        cell('td', line.kind),
        cell('td', String(line.open), 'number'),
        cell('td', String(line.due), 'number'),
        cell('td', String(line.retrying), 'number'),
        cell('td', String(line.running), 'number'),
        cell('td', when(line.oldest_due_at)),
        cell('td', line.last_error ?? ''),
      );
      body.append(row);
    }
  }

  // ---- navigation and session ----

  /** What each tab shows when opened or refreshed. @type {Record<string, () => Promise<unknown>>} */
  const VIEWS = {
    partners: () => Promise.all([loadPartners(), reloadPartner()]),
    orders: () => Promise.all([loadHeld(), searchOrders()]),
    webhooks: () => loadDeliveries(),
    finance: async () => undefined,
    engineering: () => Promise.all([loadProjections(), loadJobs()]),
  };

  let openedTab = 'partners';

  /** @param {string} name */
  function openTab(name) {
    openedTab = name;
    for (const tab of document.querySelectorAll('[role=tab]')) {
      const chosen = /** @type {HTMLElement} */ (tab).dataset.tab === name;
      tab.setAttribute('aria-selected', String(chosen));
      $(`tab-${/** @type {HTMLElement} */ (tab).dataset.tab}`).hidden = !chosen;
    }
  }

  /** @param {string} name */
  const showTab = (name) => guarded(async () => {
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
    for (const element of document.querySelectorAll('#console tbody, #console dl, #report, #verify-breaches')) element.replaceChildren();
    for (const id of ['operator-name', 'notice', 'failure', 'secret-title', 'secret-value', 'partner-name', 'partner-id', 'order-id', 'order-status', 'credit-summary',
      'resolve-summary', 'settings-state', 'statement-title', 'statement-verdict', 'verify-result', 'rebuild-projection', 'rebuild-id', 'rebuild-state', 'jobs-summary']) {
      $(id).textContent = '';
    }
    for (const id of ['notice', 'failure', 'secret', 'partner-detail', 'order-detail', 'resolve-form', 'credit-confirm', 'resolve-confirm', 'statement', 'report', 'rebuild',
      'partners-empty', 'held-empty', 'orders-empty', 'deliveries-empty']) {
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
      $('sign-in-error').textContent = 'Your name: 1 to 64 letters, digits or . _ @ - (it is recorded as the actor of your actions).';
      $('sign-in-error').hidden = false;
      return;
    }
    clearPage();
    session.token = token;
    session.operator = operator;
    try {
      // Any back office read checks the token; this one also fills the first tab.
      await loadPartners();
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
    openTab('partners');
  }

  /** @param {string} id @param {() => void | Promise<void>} handler */
  function onSubmit(id, handler) {
    $(id).addEventListener('submit', (/** @type {Event} */ event) => {
      event.preventDefault();
      guarded(async () => handler())();
    });
  }

  /** @param {string} id @param {() => void | Promise<void>} handler */
  function onClick(id, handler) {
    $(id).addEventListener('click', guarded(async () => handler()));
  }

  document.addEventListener('DOMContentLoaded', () => {
    $('sign-in-form').addEventListener('submit', (/** @type {Event} */ event) => {
      event.preventDefault();
      signIn().catch(fail);
    });
    $('sign-out').addEventListener('click', () => signOut());
    onClick('refresh', async () => {
      await VIEWS[openedTab]();
    });
    for (const tab of document.querySelectorAll('[role=tab]')) {
      tab.addEventListener('click', () => showTab(/** @type {HTMLElement} */ (tab).dataset.tab ?? 'partners')());
    }
    onClick('secret-done', () => {
      $('secret-value').textContent = '';
      $('secret').hidden = true;
    });
    window.addEventListener('beforeunload', (event) => {
      // Leaving now would lose a key or secret the service will not show again.
      if (!$('secret').hidden) event.preventDefault();
    });

    onSubmit('partner-filters', loadPartners);
    onSubmit('create-partner', createPartner);
    onClick('kyc-approve', () => changeKyc('approved'));
    onClick('kyc-suspend', () => changeKyc('suspended'));
    onSubmit('key-form', regenerateKey);
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
    $('settings-environment').addEventListener('change', guarded(loadSettings));
    onSubmit('settings-form', () => {
      const url = $('settings-webhook').value.trim();
      const allowlist = $('settings-allowlist').value.split(/[\s,]+/).filter(Boolean);
      const rate = Number($('settings-rate').value);
      return saveSettings({ webhook_url: url === '' ? null : url, ip_allowlist: allowlist, rate_limit: rate }, 'Settings saved.');
    });
    onClick('rotate-webhook-secret', async () => {
      if (!confirmed('Rotate the webhook secret? The current one keeps signing for 24 hours, then stops.')) return;
      await saveSettings({ rotate_webhook_secret: true }, 'Webhook secret rotated; the previous one keeps signing for 24 hours.');
    });
    onSubmit('credit-form', reviewCredit);
    onClick('credit-go', confirmCredit);
    onClick('credit-cancel', cancelCredit);

    onSubmit('order-filters', searchOrders);
    onSubmit('resolve-form', reviewResolution);
    onClick('resolve-go', confirmResolution);
    onClick('resolve-cancel', cancelResolution);
    onClick('order-close', () => {
      $('order-detail').hidden = true;
    });

    onSubmit('delivery-filters', loadDeliveries);

    onSubmit('finance-form', loadStatement);
    onSubmit('report-form', loadReport);
    onClick('export-csv', () => exportWallet('csv'));
    onClick('export-jsonl', () => exportWallet('jsonl'));
    onClick('verify', verify);
  });
})();
