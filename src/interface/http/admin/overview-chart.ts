import { Overview } from '../../../application/operations/show-overview';
import { WebhookOverview } from '../../../application/operations/show-webhook-overview';

const SIZE = { width: 720, height: 240, left: 44, right: 12, top: 24, bottom: 32 } as const;

interface Series {
  key: string;
  color: string;
  label: string;
}

interface DayBars {
  day: string;
  values: Record<string, number>;
  outline?: number;
}

const escape = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/** Stacked bars per day, optionally outlined, as an SVG drawn by the service: no script, no external resource. */
function stackedBarsSvg(
  label: string,
  days: readonly DayBars[],
  series: readonly Series[],
  outline: { color: string; label: string } | null,
): string {
  const plotWidth = SIZE.width - SIZE.left - SIZE.right;
  const plotHeight = SIZE.height - SIZE.top - SIZE.bottom;
  const stackOf = (day: DayBars) => series.reduce((sum, one) => sum + (day.values[one.key] ?? 0), 0);
  const top = Math.max(1, ...days.map((day) => Math.max(day.outline ?? 0, stackOf(day))));
  const slot = plotWidth / Math.max(1, days.length);
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
  days.forEach((day, index) => {
    const x = SIZE.left + index * slot + (slot - barWidth) / 2;
    let base = 0;
    for (const one of series) {
      const value = day.values[one.key] ?? 0;
      if (value > 0)
        parts.push(
          `<rect x="${x}" y="${y(base + value)}" width="${barWidth}" height="${y(base) - y(base + value)}" fill="${one.color}"><title>${escape(`${day.day} ${one.label}: ${value}`)}</title></rect>`,
        );
      base += value;
    }
    if (outline && day.outline !== undefined)
      parts.push(
        `<rect x="${x}" y="${y(day.outline)}" width="${barWidth}" height="${y(0) - y(day.outline)}" fill="none" stroke="${outline.color}" stroke-dasharray="3 2"><title>${escape(`${day.day} ${outline.label}: ${day.outline}`)}</title></rect>`,
      );
    parts.push(
      `<text x="${x + barWidth / 2}" y="${SIZE.height - 12}" text-anchor="middle" font-size="11">${escape(day.day.slice(5))}</text>`,
    );
  });
  const legend = [...(outline ? [{ color: outline.color, label: `${outline.label} (outline)` }] : []), ...series].map(
    (entry, index) =>
      `<rect x="${SIZE.left + index * 130}" y="6" width="10" height="10" fill="${entry.color}"/><text x="${SIZE.left + index * 130 + 14}" y="15" font-size="11">${escape(entry.label)}</text>`,
  );
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${SIZE.width} ${SIZE.height}" width="${SIZE.width}" height="${SIZE.height}" role="img" aria-label="${escape(label)}" font-family="sans-serif">${legend.join('')}${parts.join('')}</svg>`;
}

export function ordersByDaySvg(overview: Pick<Overview, 'byDay'>): string {
  return stackedBarsSvg(
    'Orders per day, last 7 days',
    overview.byDay.map((day) => ({
      day: day.day,
      values: { succeeded: day.succeeded, failed: day.failed, held: day.held },
      outline: day.placed,
    })),
    [
      { key: 'succeeded', color: '#2e7d32', label: 'succeeded' },
      { key: 'failed', color: '#c62828', label: 'failed' },
      { key: 'held', color: '#ef6c00', label: 'held' },
    ],
    { color: '#1f3b73', label: 'placed' },
  );
}

export function webhooksByDaySvg(webhooks: Pick<WebhookOverview, 'byDay'>): string {
  return stackedBarsSvg(
    'Webhook attempts per day, last 7 days',
    webhooks.byDay.map((day) => ({
      day: day.day,
      values: { delivered: day.delivered, retrying: day.retrying, failed: day.failed },
    })),
    [
      { key: 'delivered', color: '#2e7d32', label: 'delivered' },
      { key: 'retrying', color: '#ef6c00', label: 'refused, retrying' },
      { key: 'failed', color: '#c62828', label: 'refused, failed' },
    ],
    null,
  );
}
