// @ts-check
// Reconciliation on the finance page: the latest runs with their counts or why they failed, their mismatches,
// and a run of one day for the roles that may record findings.
import { api, may } from './api.js';
import { $, cell, notify, when } from './page.js';

const KINDS = ['amount_mismatch', 'provider_only', 'ours_only', 'status_mismatch'];

/** @param {Record<string, any>} run */
function runRow(run) {
  const row = document.createElement('tr');
  const mismatches = KINDS.reduce((sum, kind) => sum + run.counts[kind], 0);
  const failed = run.outcome === 'failed';
  row.dataset.runId = run.run_id;
  row.append(
    cell('td', when(run.finished_at)),
    cell('td', run.provider),
    cell('td', run.date),
    cell('td', run.trigger === 'operator' ? `by ${run.actor}` : run.trigger.replace('_', ' ')),
    cell(
      'td',
      failed ? 'failed' : run.complete ? 'succeeded' : 'day not over',
      `status ${failed ? 'failed' : 'success'}`,
    ),
    cell('td', failed ? '—' : String(run.counts.matched), 'number'),
    cell('td', failed ? '—' : String(mismatches), 'number'),
    cell('td', failed ? '—' : String(run.recorded), 'number'),
    cell('td', run.open_orders === null ? '—' : String(run.open_orders), 'number'),
    cell(
      'td',
      failed
        ? run.error
        : KINDS.filter((kind) => run.counts[kind] > 0)
            .map((kind) => `${run.counts[kind]} ${kind}`)
            .join(', '),
    ),
  );
  return row;
}

/** The runs, newest first, and the mismatches they found (each once, as the newest run saw it). */
export async function loadReconciliation() {
  const { runs } = await api('GET', '/providers/reconciliation/runs?limit=30');
  $('reconciliation-runs').replaceChildren(...runs.map(runRow));
  $('reconciliation-runs-empty').hidden = runs.length > 0;
  const seen = new Set();
  const rows = [];
  for (const run of runs)
    for (const mismatch of run.mismatches) {
      const key = `${run.provider} ${run.date} ${mismatch.kind} ${mismatch.order_id}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const row = document.createElement('tr');
      row.append(
        cell('td', run.date),
        cell('td', run.provider),
        cell('td', mismatch.kind),
        cell('td', mismatch.order_id, 'mono'),
        cell('td', mismatch.detail),
      );
      rows.push(row);
    }
  $('reconciliation-mismatches').replaceChildren(...rows);
  $('reconciliation-mismatches-empty').hidden = rows.length > 0;
}

/** Runs one day now (POST): what it finds is recorded on the orders, and the run is listed (a failed one too). */
export async function runReconciliation() {
  if (!may('run_reconciliation')) return;
  const form = /** @type {HTMLFormElement} */ ($('reconcile-form'));
  const value = (/** @type {string} */ name) =>
    /** @type {HTMLInputElement} */ (form.elements.namedItem(name)).value.trim();
  const provider = value('provider');
  let report;
  try {
    report = await api('POST', '/providers/reconciliation', {
      body: { date: value('date'), ...(provider ? { provider } : {}) },
    });
  } catch (error) {
    await loadReconciliation().catch(() => undefined);
    throw error;
  }
  const mismatches = KINDS.reduce((sum, kind) => sum + report.counts[kind], 0);
  notify(
    `Reconciled ${report.provider} ${report.date}: ${report.counts.matched} matched, ${mismatches} mismatch(es), ${report.recorded} recorded` +
      (report.complete ? '.' : ' (the day is not over: nothing recorded).'),
  );
  await loadReconciliation();
}
