import { escapeHtml } from '../html-text';

/** A self-contained page: no script, nothing loaded from anywhere, so it can be mailed or archived as it is. */
export const REPORT_SECURITY_POLICY =
  "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'";

/** One style sheet for every report page, inline (the page loads nothing); the console styles the same classes in console.css. */
const REPORT_STYLE = `body { font: 14px/1.45 system-ui, sans-serif; color: #1d2430; margin: 2rem; }
h1 { font-size: 1.3rem; }
table { border-collapse: collapse; margin-top: 1rem; }
th, td { padding: 0.3rem 0.6rem; border-bottom: 1px solid #d9dee7; text-align: left; vertical-align: top; }
th { color: #5d6778; }
.n { text-align: right; font-variant-numeric: tabular-nums; }
.ok { color: #1d7a46; font-weight: 600; }
.bad, tr.bad td, tr.bad th { color: #b3261e; font-weight: 600; }
.balance { fill: none; stroke: #1f5fbf; stroke-width: 2; }
.debit { fill: #e0a33a; }
.axis { stroke: #5d6778; }
.grid { stroke: #eef1f5; }
svg text { font-size: 11px; fill: #5d6778; }`;

export interface ReportPage {
  title: string;
  body: readonly string[];
}

export function reportPage(page: ReportPage): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(page.title)}</title>
<style>
${REPORT_STYLE}
</style>
</head>
<body>
<h1>${escapeHtml(page.title)}</h1>
${page.body.join('\n')}
</body>
</html>
`;
}

export const partialNotice = (text: string): string => `<p class="bad" id="partial">${escapeHtml(text)}</p>`;

export const verdictLine = (ok: boolean, markup: string): string =>
  `<p class="${ok ? 'ok' : 'bad'}" id="verdict">${markup}</p>`;

export interface Figure {
  label: string;
  value: string;
  bad?: boolean;
}

export function figuresTable(id: string, figures: readonly Figure[]): string {
  const rows = figures.map(
    (figure) =>
      `<tr${figure.bad ? ' class="bad"' : ''}><th>${escapeHtml(figure.label)}</th><td class="n">${escapeHtml(figure.value)}</td></tr>`,
  );
  return `<table id="${id}">\n${rows.join('\n')}\n</table>`;
}

export type Cell = string | { number: string } | { code: string };

export type Heading = string | { number: string };

export interface Row {
  cells: readonly Cell[];
  bad?: boolean;
}

const headingHtml = (heading: Heading): string =>
  typeof heading === 'string' ? `<th>${escapeHtml(heading)}</th>` : `<th class="n">${escapeHtml(heading.number)}</th>`;

function cellHtml(cell: Cell): string {
  if (typeof cell === 'string') return `<td>${escapeHtml(cell)}</td>`;
  if ('number' in cell) return `<td class="n">${escapeHtml(cell.number)}</td>`;
  return `<td><code>${escapeHtml(cell.code)}</code></td>`;
}

export function rowsTable(id: string, headings: readonly Heading[], rows: readonly Row[]): string {
  const body = rows.map((row) => `<tr${row.bad ? ' class="bad"' : ''}>${row.cells.map(cellHtml).join('')}</tr>`);
  return `<table id="${id}">
<thead><tr>${headings.map(headingHtml).join('')}</tr></thead>
<tbody>
${body.join('\n')}
</tbody>
</table>`;
}
