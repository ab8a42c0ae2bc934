import { ReconciliationReportResource } from './reconciliation-resources';
import { FindingKind } from '../../../domain/reconciliation/reconciliation';
import { escapeHtml } from '../html-text';
import { figuresTable, partialNotice, reportPage, rowsTable, verdictLine } from './report-page-layout';

const KIND_LABELS: Record<FindingKind, string> = {
  matched: 'Matched',
  amount_mismatch: 'Amount mismatch',
  provider_only: 'Provider only (paid upstream, unknown to us)',
  ours_only: 'Ours only (SUCCESS here, nothing upstream)',
  status_mismatch: 'Status disagreement',
};

/** The day's reconciliation as a self-contained page for finance: the counts, then every mismatch (matched orders are counted, not listed). */
export function reconciliationReportPage(report: ReconciliationReportResource): string {
  const mismatches = report.findings.filter((finding) => finding.kind !== 'matched');
  const verdict =
    mismatches.length === 0
      ? "Every transaction of the day matches an order of ours, and every successful order of ours is in the provider's report."
      : `${mismatches.length} mismatch(es): each is recorded on its order (<code>audit order &lt;order_id&gt;</code>).`;
  const mismatchRows = mismatches.map((finding) => {
    const { upstream, ours } = finding;
    return {
      cells: [
        KIND_LABELS[finding.kind],
        { code: finding.order_id },
        finding.partner_id ?? '',
        upstream ? `${upstream.status} ${upstream.amount} ${upstream.currency} (${upstream.transaction_id})` : '—',
        ours ? `${ours.status} ${ours.amount} ${ours.currency}` : '—',
        finding.detail,
      ],
    };
  });
  return reportPage({
    title: `Reconciliation with ${report.provider}, ${report.date} (UTC)`,
    body: [
      `<p>The provider's transaction report matched with our live orders routed to ${escapeHtml(report.provider)}, by the identifier we sent (our order id), at ${escapeHtml(report.generated_at)}.</p>`,
      ...(report.complete
        ? []
        : [partialNotice(`${report.date} is not over (UTC): its figures may still change, and nothing was recorded.`)]),
      figuresTable(
        'counts',
        (Object.keys(KIND_LABELS) as FindingKind[]).map((kind) => ({
          label: KIND_LABELS[kind],
          value: String(report.counts[kind]),
          bad: kind !== 'matched' && report.counts[kind] > 0,
        })),
      ),
      verdictLine(mismatches.length === 0, verdict),
      ...(mismatches.length === 0
        ? []
        : [rowsTable('mismatches', ['Kind', 'Order', 'Partner', 'Provider', 'Ours', 'Detail'], mismatchRows)]),
    ],
  });
}
