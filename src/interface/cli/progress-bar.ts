export interface RebuildSnapshot {
  rebuild_id: string;
  projection: string;
  state: string;
  phase: string;
  events_applied: number;
  events_total: number;
  events_per_second: number;
  eta_seconds: number | null;
}

export const isRebuildSnapshot = (value: unknown): value is RebuildSnapshot => {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return (
    typeof record.rebuild_id === 'string' &&
    typeof record.state === 'string' &&
    typeof record.events_applied === 'number' &&
    typeof record.events_total === 'number'
  );
};

const count = (n: number): string => n.toLocaleString('en-US');

const duration = (seconds: number | null): string => {
  if (seconds === null) return '--:--';
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${rest}` : `${m}:${rest}`;
};

export function progressLine(snapshot: RebuildSnapshot, width = 30): string {
  const phase = snapshot.phase === 'building' ? '' : `  ${snapshot.phase.replace(/_/g, ' ')}`;
  const line = barLine(
    {
      label: snapshot.projection,
      done: snapshot.events_applied,
      total: snapshot.events_total,
      perSecond: snapshot.events_per_second,
      etaSeconds: snapshot.eta_seconds,
      running: snapshot.state === 'running',
    },
    width,
  );
  return `${line}${phase}`;
}

export interface Progress {
  label: string;
  done: number;
  total: number;
  perSecond: number;
  etaSeconds: number | null;
  /** A total of 0 reads as nothing done while running, as all done once finished. */
  running: boolean;
  unit?: string;
  rateUnit?: string | null;
}

export function barLine(progress: Progress, width = 30): string {
  const total = Math.max(progress.total, progress.done);
  const fraction = total === 0 ? (progress.running ? 0 : 1) : progress.done / total;
  const filled = Math.min(width, Math.floor(fraction * width));
  const bar = filled >= width ? '='.repeat(width) : `${'='.repeat(filled)}>${' '.repeat(width - filled - 1)}`;
  const percent = `${String(Math.floor(fraction * 100)).padStart(3)}%`;
  const rateUnit = progress.rateUnit === undefined ? 'ev/s' : progress.rateUnit;
  const rate = rateUnit === null ? '' : `  ${count(progress.perSecond)} ${rateUnit}`;
  return `${progress.label} [${bar}] ${percent}  ${count(progress.done)}/${count(total)} ${progress.unit ?? 'events'}${rate}  ETA ${duration(progress.etaSeconds)}`;
}
