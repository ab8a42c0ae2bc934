// @ts-check
// Webhooks: deliveries by partner, environment and state, with every attempt, and re-send.
import { api, seg } from './api.js';
import { $, cell, confirmed, formQuery, guarded, notify, onSubmit, when } from './page.js';

export async function loadDeliveries() {
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
      const answer =
        attempt.status_code !== null
          ? `HTTP ${attempt.status_code} in ${attempt.latency_ms} ms`
          : (attempt.error ?? '');
      list.append(cell('li', `${when(attempt.attempted_at)} · ${answer}`));
    }
    attempts.append(list);
    const resend = cell('button', 'Re-send');
    resend.setAttribute('type', 'button');
    resend.dataset.needs = 'resend_webhooks';
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

export function wireWebhooks() {
  onSubmit('delivery-filters', loadDeliveries);
}
