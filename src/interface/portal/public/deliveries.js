// @ts-check
// Webhook deliveries with their last answer, and re-send: one more attempt, now, to the current URL.
import { api, seg, session } from './api.js';
import { $, cell, guarded, notify, onSubmit, when } from './page.js';

export async function loadDeliveries() {
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
    const resend = cell('button', 'Re-send');
    resend.setAttribute('type', 'button');
    resend.addEventListener(
      'click',
      guarded(() => resendDelivery(delivery)),
    );
    const action = document.createElement('td');
    action.append(resend);
    const row = document.createElement('tr');
    row.dataset.deliveryId = delivery.delivery_id;
    row.append(
      cell('td', when(delivery.created_at)),
      cell('td', delivery.event),
      cell('td', delivery.order_id, 'mono'),
      cell('td', delivery.state, `state ${delivery.state.toLowerCase()}`),
      cell('td', String(delivery.attempts.length), 'number'),
      cell('td', answer),
      action,
    );
    body.append(row);
  }
  $('deliveries-empty').textContent = state ? `No ${state} deliveries.` : 'No deliveries yet.';
  $('deliveries-empty').hidden = page.deliveries.length > 0;
}

/** @param {Record<string, any>} delivery */
async function resendDelivery(delivery) {
  const target = session.webhookUrl ? `to ${session.webhookUrl}` : 'although no webhook URL is set (it will fail)';
  if (!window.confirm(`Send ${delivery.event} of ${delivery.order_id} again, now, ${target}?`)) return;
  const scheduled = await api('POST', `/webhook-deliveries/${seg(delivery.delivery_id)}/resend`);
  notify(
    `Delivery ${delivery.delivery_id} will be sent again now (attempt ${scheduled.scheduled_attempt}); Refresh shows its answer.`,
  );
}

export function wireDeliveries() {
  onSubmit('delivery-filters', loadDeliveries);
}
