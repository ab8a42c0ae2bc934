import { escapeHtml } from '../html-text';
import { lineAndBarsChart } from './report-chart';
import { figuresTable, partialNotice, reportPage, rowsTable, verdictLine } from './report-page-layout';
import { PeriodStatementResource } from './statement-resources';

/** The period statement as a page for finance: totals, a chart of closing balance and debits, the days' table. */
export function statementReportPage(report: PeriodStatementResource): string {
  const verdict = report.adds_up
    ? "Every day adds up: opening − debits + refunds + credits = closing, and every event's recorded balance is the fold of the events."
    : 'Does not add up: see the days marked NO, and run <code>verify</code>.';
  return reportPage({
    title: `Statement of ${report.partner_name} (${report.partner_id}), ${report.environment}, ${report.from} to ${report.to}`,
    body: [
      `<p>All amounts in ${escapeHtml(report.currency)}; days are UTC. Folded from the wallet's events in the event log, not from a read model, at ${escapeHtml(report.as_of)}.</p>`,
      ...(report.complete ? [] : [partialNotice(`${report.to} is today (UTC): its figures may still change.`)]),
      figuresTable('totals', [
        { label: 'Opening balance', value: report.opening_balance },
        { label: `Debits (${report.counts.debits})`, value: report.debits },
        { label: `Refunds (${report.counts.refunds})`, value: report.refunds },
        { label: `Credits (${report.counts.credits})`, value: report.credits },
        { label: 'Closing balance', value: report.closing_balance },
      ]),
      verdictLine(report.adds_up, verdict),
      lineAndBarsChart({
        id: 'chart',
        title: `Closing balance (line) and debits (bars) per day, ${report.currency}`,
        legend: 'line: closing balance · bars: debits',
        days: report.days.map((day) => ({
          label: day.date.slice(5),
          line: Number(day.closing_balance),
          bar: Number(day.debits),
          barTitle: `${day.date}: debits ${day.debits}`,
        })),
        alsoScaled: report.days.map((day) => Number(day.opening_balance)),
      }),
      rowsTable(
        'days',
        [
          'Day',
          { number: 'Opening' },
          { number: 'Debits' },
          { number: '#' },
          { number: 'Refunds' },
          { number: '#' },
          { number: 'Credits' },
          { number: 'Closing' },
          'Adds up',
        ],
        report.days.map((day) => ({
          bad: !day.adds_up,
          cells: [
            day.date,
            { number: day.opening_balance },
            { number: day.debits },
            { number: String(day.counts.debits) },
            { number: day.refunds },
            { number: String(day.counts.refunds) },
            { number: day.credits },
            { number: day.closing_balance },
            day.adds_up ? 'yes' : 'NO',
          ],
        })),
      ),
    ],
  });
}
