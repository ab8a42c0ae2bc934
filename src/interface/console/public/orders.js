// @ts-check
// Orders: the held queue, the search across partners, an order's timeline (its audit), and the
// resolution of a held order with a mandatory reason and a confirmation.
import { ApiError, api, seg, session } from './api.js';
import { $, cell, fail, formQuery, notify, onClick, onSubmit, pickable, when } from './page.js';

/** @param {Record<string, any>} order */
const recipient = (order) =>
  order.product?.phone ?? (order.product?.consumerNumber ? `bill ${order.product.consumerNumber}` : '');

/** @param {HTMLElement} body @param {Record<string, any>[]} orders @param {boolean} wide */
function drawOrders(body, orders, wide) {
  body.replaceChildren();
  for (const order of orders) {
    const row = document.createElement('tr');
    row.dataset.orderId = order.order_id;
    row.tabIndex = 0;
    row.className = 'pick';
    row.append(
      cell('td', when(order.created_at)),
      cell('td', order.order_id, 'mono'),
      cell('td', order.partner_id, 'mono'),
    );
    if (wide) row.append(cell('td', order.environment));
    row.append(
      cell('td', recipient(order)),
      cell('td', `${order.amount} ${order.currency}`, 'number'),
      cell('td', order.status, `status ${order.status.toLowerCase()}`),
    );
    if (wide) row.append(cell('td', order.reference ?? ''));
    if (order.follow_up !== undefined) {
      const followUp = order.follow_up;
      row.append(
        cell('td', followUp?.last_word ?? '—', 'details'),
        cell('td', followUp?.asked_at ? when(followUp.asked_at) : '—'),
        cell(
          'td',
          followUp?.next_ask_at
            ? when(followUp.next_ask_at)
            : `no more (until ${followUp ? when(followUp.asked_until) : '—'})`,
        ),
      );
    }
    pickable(row, () => showOrder(order.order_id));
    body.append(row);
  }
}

export async function loadHeld() {
  const page = await api('GET', '/orders?held=true&limit=200');
  drawOrders($('held-orders'), page.orders, false);
  $('held-empty').hidden = page.orders.length > 0;
}

export async function searchOrders() {
  const params = formQuery('order-filters', ['created_to']);
  params.set('limit', '200');
  const page = await api('GET', `/orders?${params}`);
  drawOrders($('orders'), page.orders, true);
  $('orders-empty').hidden = page.orders.length > 0;
}

/** @param {string} orderId */
async function showOrder(orderId) {
  const [order, audit] = await Promise.all([
    api('GET', `/orders/${seg(orderId)}`),
    api('GET', `/audit/orders/${seg(orderId)}`),
  ]);
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
      cell('td', event.trace_id ?? '—', 'trace'),
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
    .map(
      ([name, value]) =>
        `${name}=${value !== null && typeof value === 'object' ? JSON.stringify(value) : String(value)}`,
    )
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
  const against = /** @type {HTMLInputElement} */ ($('resolve-against-reconciliation')).checked;
  const overProvider = /** @type {HTMLInputElement} */ ($('resolve-against-provider')).checked;
  session.resolution = {
    outcome,
    reason,
    ...(against ? { against_reconciliation: true } : {}),
    ...(overProvider ? { against_provider: true } : {}),
  };
  $('resolve-summary').textContent =
    (outcome === 'success'
      ? `Resolve ${order.order_id} as SUCCESS: the debit of ${order.amount} ${order.currency} stands. Reason: “${reason}”?`
      : `Resolve ${order.order_id} as FAILED: ${order.amount} ${order.currency} is refunded to ${order.partner_id}. Reason: “${reason}”?`) +
    (against ? ' Even against what reconciliation found in the provider’s report.' : '') +
    (overProvider ? ' Even against what the provider answers now.' : '') +
    (order.environment === 'live' ? ' The provider is asked first.' : '');
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
  let resolved;
  try {
    resolved = await api('POST', `/orders/${seg(order.order_id)}/resolve`, { body: resolution });
  } catch (error) {
    $('resolve-go').disabled = false;
    throw error;
  }
  cancelResolution();
  /** @type {HTMLFormElement} */ ($('resolve-form')).reset();
  const answer = resolved.provider_answer;
  notify(
    `Order ${order.order_id} resolved as ${resolution.outcome === 'success' ? 'SUCCESS' : 'FAILED'}.` +
      (answer ? ` The provider answered ${answer.word} (${answer.detail}) at ${when(answer.asked_at)} UTC.` : ''),
  );
  await Promise.all([showOrder(order.order_id), loadHeld()]);
}

export function wireOrders() {
  onSubmit('order-filters', searchOrders);
  onSubmit('resolve-form', reviewResolution);
  onClick('resolve-go', confirmResolution);
  onClick('resolve-cancel', cancelResolution);
  onClick('order-close', () => {
    $('order-detail').hidden = true;
  });
}
