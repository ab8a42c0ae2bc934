import { escapeHtml } from '../html-text';

const SIZE = { width: 880, height: 260, left: 90, right: 16, top: 16, bottom: 36 } as const;

export interface ChartDay {
  label: string;
  line: number;
  bar: number;
  barTitle: string;
}

export interface LineAndBarsChart {
  id: string;
  title: string;
  legend: string;
  days: readonly ChartDay[];
  alsoScaled?: readonly number[];
}

// A line (class `balance`) and bars (`debit`) per day on one scale, as inline SVG. Values become pixels here
// only: every figure a report prints is its exact decimal string.
export function lineAndBarsChart(chart: LineAndBarsChart): string {
  const { width, height, left, right, top, bottom } = SIZE;
  const plotWidth = width - left - right;
  const plotHeight = height - top - bottom;
  const values = chart.days.flatMap((day) => [day.line, day.bar]).concat(chart.alsoScaled ?? []);
  const highest = niceCeiling(Math.max(...values, 0));
  const slot = plotWidth / chart.days.length;
  const x = (index: number) => left + slot * index + slot / 2;
  const y = (value: number) => top + plotHeight - (highest === 0 ? 0 : (value / highest) * plotHeight);
  const bars = chart.days
    .map((day, index) => {
      const barTop = y(day.bar);
      return `<rect class="debit" x="${(x(index) - slot * 0.3).toFixed(1)}" y="${barTop.toFixed(1)}" width="${(slot * 0.6).toFixed(1)}" height="${(top + plotHeight - barTop).toFixed(1)}"><title>${escapeHtml(day.barTitle)}</title></rect>`;
    })
    .join('');
  const line = chart.days.map((day, index) => `${x(index).toFixed(1)},${y(day.line).toFixed(1)}`).join(' ');
  const ticks = [0, 0.25, 0.5, 0.75, 1]
    .map((share) => {
      const at = top + plotHeight - share * plotHeight;
      return `<line class="grid" x1="${left}" x2="${width - right}" y1="${at}" y2="${at}"/><text x="${left - 6}" y="${at + 4}" text-anchor="end">${(highest * share).toLocaleString('en-US')}</text>`;
    })
    .join('');
  const labelEvery = Math.ceil(chart.days.length / 12);
  const labels = chart.days
    .map((day, index) =>
      index % labelEvery === 0
        ? `<text x="${x(index).toFixed(1)}" y="${height - 14}" text-anchor="middle">${escapeHtml(day.label)}</text>`
        : '',
    )
    .join('');
  return `<svg id="${chart.id}" role="img" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" xmlns="http://www.w3.org/2000/svg">
<title>${escapeHtml(chart.title)}</title>
${ticks}${bars}
<polyline class="balance" points="${line}"/>
<line class="axis" x1="${left}" x2="${width - right}" y1="${top + plotHeight}" y2="${top + plotHeight}"/>${labels}
<text x="${left}" y="${height - 1}">${escapeHtml(chart.legend)}</text>
</svg>`;
}

function niceCeiling(value: number): number {
  if (value <= 0) return 0;
  const power = 10 ** Math.floor(Math.log10(value));
  const step = [1, 2, 5, 10].find((multiple) => multiple * power >= value) ?? 10;
  return step * power;
}
