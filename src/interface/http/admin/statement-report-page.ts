import { PeriodStatementView } from '../../../application/audit/period-statement';
import { escapeHtml } from '../html-text';

/** A self-contained page: no script, nothing loaded from anywhere, so it can be mailed or archived as it is. */
export const REPORT_SECURITY_POLICY =
  "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'";

const CHART = { width: 880, height: 260, left: 90, right: 16, top: 16, bottom: 36 } as const;

/**
 * The period statement as a page for finance: the totals, a chart of the closing balance and
 * of the debits per day, and the table of days with whether each adds up.
 */
export function statementReportPage(report: PeriodStatementView): string {
  const title = `Statement of ${report.partner_name} (${report.partner_id}), ${report.environment}, ${report.from} to ${report.to}`;
  const verdict = report.adds_up
    ? '<p class="ok" id="verdict">Every day adds up: opening − debits + refunds + credits = closing, and every event\'s recorded balance is the fold of the events.</p>'
    : '<p class="bad" id="verdict">Does not add up: see the days marked NO, and run <code>verify</code>.</p>';
  const rows = report.days
    .map(
      (day) =>
        `<tr${day.adds_up ? '' : ' class="bad"'}><td>${escapeHtml(day.date)}</td><td class="n">${escapeHtml(day.opening_balance)}</td>` +
        `<td class="n">${escapeHtml(day.debits)}</td><td class="n">${day.counts.debits}</td><td class="n">${escapeHtml(day.refunds)}</td>` +
        `<td class="n">${day.counts.refunds}</td><td class="n">${escapeHtml(day.credits)}</td><td class="n">${escapeHtml(day.closing_balance)}</td>` +
        `<td>${day.adds_up ? 'yes' : 'NO'}</td></tr>`,
    )
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
th, td { padding: 0.3rem 0.6rem; border-bottom: 1px solid #d9dee7; text-align: left; }
th { color: #5d6778; }
.n { text-align: right; font-variant-numeric: tabular-nums; }
.ok { color: #1d7a46; font-weight: 600; }
.bad, tr.bad td { color: #b3261e; font-weight: 600; }
.balance { fill: none; stroke: #1f5fbf; stroke-width: 2; }
.debit { fill: #e0a33a; }
.axis { stroke: #5d6778; }
.grid { stroke: #eef1f5; }
svg text { font-size: 11px; fill: #5d6778; }
</style>
</head>
<body>
<h1>${escapeHtml(title)}</h1>
<p>All amounts in ${escapeHtml(report.currency)}; days are UTC. Folded from the wallet's events in the event log, not from a read model, at ${escapeHtml(report.as_of)}.</p>
${report.complete ? '' : `<p class="bad" id="partial">${escapeHtml(report.to)} is today (UTC): its figures may still change.</p>`}
<table id="totals">
<tr><th>Opening balance</th><td class="n">${escapeHtml(report.opening_balance)}</td></tr>
<tr><th>Debits (${report.counts.debits})</th><td class="n">${escapeHtml(report.debits)}</td></tr>
<tr><th>Refunds (${report.counts.refunds})</th><td class="n">${escapeHtml(report.refunds)}</td></tr>
<tr><th>Credits (${report.counts.credits})</th><td class="n">${escapeHtml(report.credits)}</td></tr>
<tr><th>Closing balance</th><td class="n">${escapeHtml(report.closing_balance)}</td></tr>
</table>
${verdict}
${chart(report)}
<table id="days">
<thead><tr><th>Day</th><th class="n">Opening</th><th class="n">Debits</th><th class="n">#</th><th class="n">Refunds</th><th class="n">#</th><th class="n">Credits</th><th class="n">Closing</th><th>Adds up</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>
</body>
</html>
`;
}

/**
 * Closing balance per day as a line, debits per day as bars, on one scale. Amounts become
 * pixel positions here only; every figure printed on the page is the exact decimal string.
 */
function chart(report: PeriodStatementView): string {
  const { width, height, left, right, top, bottom } = CHART;
  const plotWidth = width - left - right;
  const plotHeight = height - top - bottom;
  const values = report.days.flatMap((day) => [
    Number(day.closing_balance),
    Number(day.debits),
    Number(day.opening_balance),
  ]);
  const highest = niceCeiling(Math.max(...values, 0));
  const slot = plotWidth / report.days.length;
  const x = (index: number) => left + slot * index + slot / 2;
  const y = (value: number) => top + plotHeight - (highest === 0 ? 0 : (value / highest) * plotHeight);
  const bars = report.days
    .map((day, index) => {
      const barTop = y(Number(day.debits));
      return `<rect class="debit" x="${(x(index) - slot * 0.3).toFixed(1)}" y="${barTop.toFixed(1)}" width="${(slot * 0.6).toFixed(1)}" height="${(top + plotHeight - barTop).toFixed(1)}"><title>${escapeHtml(day.date)}: debits ${escapeHtml(day.debits)}</title></rect>`;
    })
    .join('');
  const line = report.days
    .map((day, index) => `${x(index).toFixed(1)},${y(Number(day.closing_balance)).toFixed(1)}`)
    .join(' ');
  const ticks = [0, 0.25, 0.5, 0.75, 1]
    .map((share) => {
      const at = top + plotHeight - share * plotHeight;
      return `<line class="grid" x1="${left}" x2="${width - right}" y1="${at}" y2="${at}"/><text x="${left - 6}" y="${at + 4}" text-anchor="end">${(highest * share).toLocaleString('en-US')}</text>`;
    })
    .join('');
  const labelEvery = Math.ceil(report.days.length / 12);
  const labels = report.days
    .map((day, index) =>
      index % labelEvery === 0
        ? `<text x="${x(index).toFixed(1)}" y="${height - 14}" text-anchor="middle">${escapeHtml(day.date.slice(5))}</text>`
        : '',
    )
    .join('');
  return `<svg id="chart" role="img" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" xmlns="http://www.w3.org/2000/svg">
<title>Closing balance (line) and debits (bars) per day, ${escapeHtml(report.currency)}</title>
${ticks}${bars}
<polyline class="balance" points="${line}"/>
<line class="axis" x1="${left}" x2="${width - right}" y1="${top + plotHeight}" y2="${top + plotHeight}"/>${labels}
<text x="${left}" y="${height - 1}">line: closing balance · bars: debits</text>
</svg>`;
}

/** 1, 2 or 5 times a power of ten, at least `value`: round numbers on the axis. */
function niceCeiling(value: number): number {
  if (value <= 0) return 0;
  const power = 10 ** Math.floor(Math.log10(value));
  const step = [1, 2, 5, 10].find((multiple) => multiple * power >= value) ?? 10;
  return step * power;
}
