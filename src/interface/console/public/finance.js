// @ts-check
// Finance: a wallet's day, the period report, CSV and JSONL exports downloaded in the page (the token never goes
// into a URL), verify, and reconciliation (reconciliation.js).
import { ApiError, api, call, seg } from './api.js';
import { $, cell, notify, onClick, onSubmit } from './page.js';
import { runReconciliation } from './reconciliation.js';

function wallet() {
  const form = /** @type {HTMLFormElement} */ ($('finance-form'));
  const value = (/** @type {string} */ name) =>
    /** @type {HTMLInputElement} */ (form.elements.namedItem(name)).value.trim();
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
  $('statement-verdict').textContent =
    (day.adds_up ? 'Adds up.' : 'Does NOT add up: run verify.') +
    (day.complete ? '' : ' The day is not over (UTC): figures may still change.');
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
  const html = await call(
    'GET',
    `/audit/reports/${seg(partnerId)}/${seg(environment)}?from=${seg(from)}&to=${seg(to)}&format=html`,
  );
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
  const text = await call(
    'GET',
    `/audit/wallets/${seg(partnerId)}/${seg(environment)}?from=${seg(from)}&to=${seg(to)}&format=${format}`,
  );
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
  const inProgress =
    Array.isArray(report.in_progress) && report.in_progress.length
      ? `; ${report.in_progress.length} still in progress`
      : '';
  $('verify-result').textContent = report.ok
    ? `Every money invariant holds (checked ${checked}${inProgress}).`
    : `${breaches.length} breach(es) of the money invariants (checked ${checked}${inProgress}).`;
  $('verify-result').className = report.ok ? 'notice' : 'error';
  for (const breach of breaches) $('verify-breaches').append(cell('li', JSON.stringify(breach)));
}

export function wireFinance() {
  onSubmit('finance-form', loadStatement);
  onSubmit('report-form', loadReport);
  onClick('export-csv', () => exportWallet('csv'));
  onClick('export-jsonl', () => exportWallet('jsonl'));
  onClick('verify', verify);
  onSubmit('reconcile-form', runReconciliation);
}
