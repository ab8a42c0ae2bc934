/** A small self-contained SVG line chart: throughput and p99 latency against concurrency. */

export interface ChartPoint {
  connections: number;
  rps: number;
  p99_ms: number;
}

export interface ChartSeries {
  name: string;
  color: string;
  dashed?: boolean;
  points: readonly ChartPoint[];
}

const WIDTH = 1000;
const HEIGHT = 430;
const PANEL_W = 380;
const PANEL_H = 280;
const TOP = 80;
const LEFTS = [80, 580];
/** The topup p99 target, drawn on the latency panel. */
const P99_TARGET_MS = 25;

const escape = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** 1, 2, 2.5, 5 × 10^n steps, about five of them up to `max`. */
function niceTicks(max: number): number[] {
  if (!(max > 0)) return [0, 1];
  const rough = max / 5;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * power).find((s) => s >= rough) ?? 10 * power;
  const ticks: number[] = [];
  for (let value = 0; value <= max + step * 0.999; value += step) ticks.push(Number(value.toPrecision(6)));
  return ticks;
}

function formatTick(value: number): string {
  if (value >= 1000) return `${Number((value / 1000).toPrecision(3))}k`;
  return String(Number(value.toPrecision(3)));
}

export function renderChart(title: string, subtitle: string, series: readonly ChartSeries[]): string {
  const connections = [...new Set(series.flatMap((s) => s.points.map((p) => p.connections)))].sort((a, b) => a - b);
  const minC = connections[0] ?? 1;
  const maxC = connections[connections.length - 1] ?? 64;
  const logSpan = Math.max(Math.log2(maxC) - Math.log2(minC), 1);
  const x = (left: number, c: number) => left + ((Math.log2(c) - Math.log2(minC)) / logSpan) * PANEL_W;

  const out: string[] = [];
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" font-family="Helvetica, Arial, sans-serif" font-size="12">`,
  );
  out.push(`<rect width="${WIDTH}" height="${HEIGHT}" fill="#ffffff"/>`);
  out.push(
    `<text x="${WIDTH / 2}" y="24" text-anchor="middle" font-size="16" font-weight="bold">${escape(title)}</text>`,
  );
  out.push(`<text x="${WIDTH / 2}" y="44" text-anchor="middle" fill="#555">${escape(subtitle)}</text>`);

  const panels: { label: string; value: (p: ChartPoint) => number; log: boolean }[] = [
    { label: 'throughput (requests / s)', value: (p) => p.rps, log: false },
    { label: 'p99 latency (ms, log scale)', value: (p) => p.p99_ms, log: true },
  ];
  panels.forEach((panel, index) => {
    const left = LEFTS[index];
    const values = series.flatMap((s) => s.points.map(panel.value));
    const max = Math.max(1, ...values);
    let ticks: number[];
    let y: (v: number) => number;
    if (panel.log) {
      const low = Math.floor(Math.log10(Math.max(0.1, Math.min(...values.filter((v) => v > 0), max))));
      const high = Math.ceil(Math.log10(max));
      ticks = [];
      for (let e = low; e <= Math.max(high, low + 1); e++) ticks.push(Number((10 ** e).toPrecision(3)));
      const span = Math.log10(ticks[ticks.length - 1]) - Math.log10(ticks[0]);
      y = (v: number) => TOP + PANEL_H - ((Math.log10(Math.max(v, ticks[0])) - Math.log10(ticks[0])) / span) * PANEL_H;
    } else {
      ticks = niceTicks(max);
      const top = ticks[ticks.length - 1];
      y = (v: number) => TOP + PANEL_H - (v / top) * PANEL_H;
    }
    out.push(
      `<text x="${left + PANEL_W / 2}" y="${TOP - 10}" text-anchor="middle" font-weight="bold">${escape(panel.label)}</text>`,
    );
    for (const tick of ticks) {
      out.push(`<line x1="${left}" y1="${y(tick)}" x2="${left + PANEL_W}" y2="${y(tick)}" stroke="#e5e5e5"/>`);
      out.push(`<text x="${left - 6}" y="${y(tick) + 4}" text-anchor="end" fill="#333">${formatTick(tick)}</text>`);
    }
    for (const c of connections) {
      out.push(
        `<line x1="${x(left, c)}" y1="${TOP + PANEL_H}" x2="${x(left, c)}" y2="${TOP + PANEL_H + 5}" stroke="#333"/>`,
      );
      out.push(`<text x="${x(left, c)}" y="${TOP + PANEL_H + 18}" text-anchor="middle" fill="#333">${c}</text>`);
    }
    if (panel.log && P99_TARGET_MS >= ticks[0] && P99_TARGET_MS <= ticks[ticks.length - 1]) {
      out.push(
        `<line x1="${left}" y1="${y(P99_TARGET_MS)}" x2="${left + PANEL_W}" y2="${y(P99_TARGET_MS)}" stroke="#888" stroke-dasharray="2 3"/>`,
      );
      out.push(
        `<text x="${left + PANEL_W - 4}" y="${y(P99_TARGET_MS) - 4}" text-anchor="end" fill="#666">target ${P99_TARGET_MS} ms</text>`,
      );
    }
    out.push(`<line x1="${left}" y1="${TOP + PANEL_H}" x2="${left + PANEL_W}" y2="${TOP + PANEL_H}" stroke="#333"/>`);
    out.push(`<line x1="${left}" y1="${TOP}" x2="${left}" y2="${TOP + PANEL_H}" stroke="#333"/>`);
    out.push(
      `<text x="${left + PANEL_W / 2}" y="${TOP + PANEL_H + 36}" text-anchor="middle" fill="#333">concurrent connections (log scale)</text>`,
    );
    for (const s of series) {
      const points = [...s.points].sort((a, b) => a.connections - b.connections);
      if (!points.length) continue;
      const path = points.map((p) => `${x(left, p.connections).toFixed(1)},${y(panel.value(p)).toFixed(1)}`).join(' ');
      out.push(
        `<polyline points="${path}" fill="none" stroke="${s.color}" stroke-width="2.5"${s.dashed ? ' stroke-dasharray="6 4"' : ''}/>`,
      );
      for (const p of points) {
        out.push(
          `<circle cx="${x(left, p.connections).toFixed(1)}" cy="${y(panel.value(p)).toFixed(1)}" r="3.5" fill="${s.color}"><title>${escape(`${s.name}, ${p.connections} conn: ${formatTick(panel.value(p))}`)}</title></circle>`,
        );
      }
    }
  });

  // legend
  let lx = 80;
  const ly = HEIGHT - 22;
  for (const s of series) {
    out.push(
      `<line x1="${lx}" y1="${ly - 4}" x2="${lx + 28}" y2="${ly - 4}" stroke="${s.color}" stroke-width="2.5"${s.dashed ? ' stroke-dasharray="6 4"' : ''}/>`,
    );
    out.push(`<text x="${lx + 34}" y="${ly}" fill="#222">${escape(s.name)}</text>`);
    lx += 44 + s.name.length * 6.6;
  }
  out.push('</svg>');
  return `${out.join('\n')}\n`;
}
