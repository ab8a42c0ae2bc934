/**
 * Report times as Reloadly writes them: "yyyy-MM-dd HH:mm:ss" wall-clock times in a zone, with
 * no offset (its documented examples are 4–5 hours from the UTC times beside them). The
 * simulator's zone is --report-time-zone (America/New_York by default).
 * Written apart from src/domain/shared/zoned-time.ts on purpose: the adapter's reading of these times is tested
 * against this writing of them, and one shared function would hide a mistake in both.
 */
const formats = new Map<string, Intl.DateTimeFormat>();

function formatOf(zone: string): Intl.DateTimeFormat {
  let format = formats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formats.set(zone, format);
  }
  return format;
}

/** The zone's wall clock at an instant, as the milliseconds of a UTC date with those fields. */
function wallClock(at: number, zone: string): number {
  const parts = Object.fromEntries(
    formatOf(zone)
      .formatToParts(new Date(at))
      .map((part) => [part.type, part.value]),
  );
  const field = (name: string) => Number(parts[name]);
  return Date.UTC(field('year'), field('month') - 1, field('day'), field('hour'), field('minute'), field('second'));
}

export function zonedStamp(at: number, zone: string): string {
  return new Date(wallClock(Math.floor(at / 1000) * 1000, zone)).toISOString().slice(0, 19).replace('T', ' ');
}

/** The instant of a "yyyy-MM-dd HH:mm:ss" text read in the zone; null when it is no such text. */
export function zonedInstant(text: string | null, zone: string): number | null {
  const match = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/.exec(text?.trim() ?? '');
  if (!match) return null;
  const [year, month, day, hour, minute, second] = match.slice(1).map(Number);
  const wall = Date.UTC(year, month - 1, day, hour, minute, second);
  const first = wall - (wallClock(wall, zone) - wall);
  return wall - (wallClock(first, zone) - first);
}

export function assertTimeZone(zone: string): void {
  formatOf(zone);
}
