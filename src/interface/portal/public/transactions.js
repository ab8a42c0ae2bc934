// @ts-check
// Transactions: filters, pages (newer and older by cursor), a bar per status, an order's status.
import { api, seg, session } from './api.js';
import { $, cell, formQuery, onClick, onSubmit, pickable, when } from './page.js';

/** @param {(string | null)[]} cursors the page to show: the last cursor of this stack */
export async function loadTransactions(cursors = session.cursors) {
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
    row.className = 'pick';
    row.append(
      cell('td', when(order.created_at)),
      cell('td', order.order_id, 'mono'),
      cell('td', order.phone ?? (order.consumer_number ? `bill ${order.consumer_number}` : '')),
      cell('td', `${order.amount_local} ${order.currency}`, 'number'),
      cell('td', order.status, `status ${order.status.toLowerCase()}`),
      cell('td', order.reference ?? ''),
    );
    pickable(row, () => showTransaction(order.order_id));
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
  const order = await api('GET', `/transactions/${seg(orderId)}`);
  $('detail-order-id').textContent = order.order_id;
  const fields = $('detail-fields');
  fields.replaceChildren();
  for (const [name, value] of Object.entries(order)) {
    if (name === 'order_id') continue;
    fields.append(cell('dt', name), cell('dd', value === null ? '—' : String(value)));
  }
  $('transaction-detail').hidden = false;
}

export function wireTransactions() {
  onSubmit('transaction-filters', async () => {
    // "To" is the last day shown, so the API gets the day after.
    session.filters = formQuery('transaction-filters', ['created_to']);
    session.cursors = [null];
    session.nextCursor = null;
    await loadTransactions([null]);
  });
  onClick('older', () => loadTransactions([...session.cursors, session.nextCursor]));
  onClick('newer', () => loadTransactions(session.cursors.slice(0, -1)));
  $('detail-close').addEventListener('click', () => {
    $('transaction-detail').hidden = true;
  });
}
