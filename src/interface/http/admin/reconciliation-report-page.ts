import { ReconciliationReport } from '../../../application/reconciliation/reconciliation-report';
import { FindingKind } from '../../../domain/reconciliation/reconciliation';
import { escapeHtml } from '../html-text';

const KIND_LABELS: Record<FindingKind, string> = {
  matched: 'Matched',
  amount_mismatch: 'Amount mismatch',
  provider_only: 'Provider only (paid upstream, unknown to us)',
  ours_only: 'Ours only (SUCCESS here, nothing upstream)',
  status_mismatch: 'Status disagreement',
};

/** The day's reconciliation as a self-contained page for finance: the counts, then every mismatch (matched orders are counted, not listed). */
export function reconciliationReportPage(report: ReconciliationReport): string {
  const title = `Reconciliation with ${report.provider}, ${report.date} (UTC)`;
  const mismatches = report.findings.filter((finding) => finding.kind !== 'matched');
  const verdict =
    mismatches.length === 0
      ? '<p class="ok" id="verdict">Every transaction of the day matches an order of ours, and every successful order of ours is in the provider\'s report.</p>'
      : `<p class="bad" id="verdict">${mismatches.length} mismatch(es): each is recorded on its order (<code>audit order &lt;order_id&gt;</code>).</p>`;
  const counts = (Object.keys(KIND_LABELS) as FindingKind[])
    .map(
      (kind) =>
        `<tr${kind !== 'matched' && report.counts[kind] > 0 ? ' class="bad"' : ''}><th>${escapeHtml(KIND_LABELS[kind])}</th><td class="n">${report.counts[kind]}</td></tr>`,
    )
    .join('\n');
  const rows = mismatches
    .map((finding) => {
      const upstream = finding.upstream;
      const ours = finding.ours;
      return (
        `<tr><td>${escapeHtml(KIND_LABELS[finding.kind])}</td><td><code>${escapeHtml(finding.order_id)}</code></td><td>${escapeHtml(finding.partner_id ?? '')}</td>` +
        `<td>${escapeHtml(upstream ? `${upstream.status} ${upstream.amount} ${upstream.currency} (${upstream.transaction_id})` : '—')}</td>` +
        `<td>${escapeHtml(ours ? `${ours.status} ${ours.amount} ${ours.currency}` : '—')}</td><td>${escapeHtml(finding.detail)}</td></tr>`
      );
    })
    .join('\n');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
body { font: 14px/1.45 system-ui, sans-serif; color: #1d2430; margin: 2rem; }
h1 { font-size: 1.3rem; }
table { border-collapse: collapse; margin-top: 1rem; }
th, td { padding: 0.3rem 0.6rem; border-bottom: 1px solid #d9dee7; text-align: left; vertical-align: top; }
th { color: #5d6778; }
.n { text-align: right; font-variant-numeric: tabular-nums; }
.ok { color: #1d7a46; font-weight: 600; }
.bad, tr.bad td, tr.bad th { color: #b3261e; font-weight: 600; }
</style>
</head>
<body>
<h1>${escapeHtml(title)}</h1>
<p>The provider's transaction report matched with our live orders routed to ${escapeHtml(report.provider)}, by the identifier we sent (our order id), at ${escapeHtml(report.generated_at)}.</p>
${report.complete ? '' : `<p class="bad" id="partial">${escapeHtml(report.date)} is not over (UTC): its figures may still change, and nothing was recorded.</p>`}
<table id="counts">
${counts}
</table>
${verdict}
${
  mismatches.length === 0
    ? ''
    : `<table id="mismatches">
<thead><tr><th>Kind</th><th>Order</th><th>Partner</th><th>Provider</th><th>Ours</th><th>Detail</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>`
}
</body>
</html>
`;
}
