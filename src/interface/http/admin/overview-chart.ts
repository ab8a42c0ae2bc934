import { Overview } from '../../../application/operations/show-overview';

const SIZE = { width: 720, height: 240, left: 44, right: 12, top: 24, bottom: 32 } as const;
const SERIES = [
  { key: 'succeeded', color: '#2e7d32', label: 'succeeded' },
  { key: 'failed', color: '#c62828', label: 'failed' },
  { key: 'held', color: '#ef6c00', label: 'held' },
] as const;

const escape = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/**
 * Orders per day of the last 7 days, placed (outline) and their outcomes (stacked bars), drawn
 * by the service as an SVG document: no script, no external resource.
 */
export function ordersByDaySvg(overview: Pick<Overview, 'by_day'>): string {
  const plotWidth = SIZE.width - SIZE.left - SIZE.right;
  const plotHeight = SIZE.height - SIZE.top - SIZE.bottom;
  const top = Math.max(1, ...overview.by_day.map((day) => Math.max(day.placed, day.succeeded + day.failed + day.held)));
  const slot = plotWidth / Math.max(1, overview.by_day.length);
  const barWidth = Math.max(4, slot * 0.6);
  const y = (value: number) => SIZE.top + plotHeight - (value / top) * plotHeight;
  const parts: string[] = [];
  for (const tick of [0, 0.5, 1]) {
    const value = Math.round(top * tick);
    parts.push(
      `<line x1="${SIZE.left}" x2="${SIZE.width - SIZE.right}" y1="${y(value)}" y2="${y(value)}" stroke="#ddd"/>`,
      `<text x="${SIZE.left - 6}" y="${y(value) + 4}" text-anchor="end" font-size="11">${value}</text>`,
    );
  }
  overview.by_day.forEach((day, index) => {
    const x = SIZE.left + index * slot + (slot - barWidth) / 2;
    let base = 0;
    for (const series of SERIES) {
      const value = day[series.key];
      if (value > 0)
        parts.push(
          `<rect x="${x}" y="${y(base + value)}" width="${barWidth}" height="${y(base) - y(base + value)}" fill="${series.color}"><title>${escape(`${day.day} ${series.label}: ${value}`)}</title></rect>`,
        );
      base += value;
    }
    parts.push(
      `<rect x="${x}" y="${y(day.placed)}" width="${barWidth}" height="${y(0) - y(day.placed)}" fill="none" stroke="#1f3b73" stroke-dasharray="3 2"><title>${escape(`${day.day} placed: ${day.placed}`)}</title></rect>`,
      `<text x="${x + barWidth / 2}" y="${SIZE.height - 12}" text-anchor="middle" font-size="11">${escape(day.day.slice(5))}</text>`,
    );
  });
  const legend = [{ color: '#1f3b73', label: 'placed (outline)' }, ...SERIES].map(
    (series, index) =>
      `<rect x="${SIZE.left + index * 130}" y="6" width="10" height="10" fill="${series.color}"/><text x="${SIZE.left + index * 130 + 14}" y="15" font-size="11">${escape(series.label)}</text>`,
  );
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${SIZE.width} ${SIZE.height}" width="${SIZE.width}" height="${SIZE.height}" role="img" aria-label="Orders per day, last 7 days" font-family="sans-serif">${legend.join('')}${parts.join('')}</svg>`;
}
