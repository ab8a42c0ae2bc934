/**
 * Reloadly's report times: "yyyy-MM-dd HH:mm:ss" wall-clock times without a zone. The zone they
 * are in is RELOADLY_REPORT_TIME_ZONE (an IANA name; docs/decisions/0043-reloadly-report-times.md):
 * the report's range parameters are written in it, and its dates are read in it.
 */
const WALL_CLOCK = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?$/;

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

/** Whether the runtime knows the zone name. */
export function isTimeZone(zone: string): boolean {
  try {
    formatOf(zone);
    return true;
  } catch {
    return false;
  }
}

/** The wall-clock fields of an instant in a zone, as milliseconds of a UTC date with the same fields. */
function wallClockOf(at: number, zone: string): number {
  const parts = Object.fromEntries(
    formatOf(zone)
      .formatToParts(new Date(at))
      .map((part) => [part.type, part.value]),
  );
  const field = (name: string) => Number(parts[name]);
  return Date.UTC(field('year'), field('month') - 1, field('day'), field('hour'), field('minute'), field('second'));
}

/** An instant as Reloadly writes it in the zone: "yyyy-MM-dd HH:mm:ss". */
export function reportTimeOf(at: Date, zone: string): string {
  return new Date(wallClockOf(Math.floor(at.getTime() / 1000) * 1000, zone))
    .toISOString()
    .slice(0, 19)
    .replace('T', ' ');
}

/**
 * The instant of a report time written in the zone; a text with its own offset or a `Z` is taken
 * as it says. Of a wall-clock time that occurs twice (the hour a zone turns its clocks back) the
 * earlier is taken; one that cannot occur (the hour skipped) is read with the offset after the
 * change. Null when the text is no time.
 */
export function instantOfReportTime(text: string, zone: string): Date | null {
  const match = WALL_CLOCK.exec(text.trim());
  if (!match) {
    const at = Date.parse(text);
    return Number.isNaN(at) ? null : new Date(at);
  }
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number);
  const wall = Date.UTC(year, month - 1, day, hour, minute, second);
  // The zone's offset at the wall time read as UTC, then at the instant that gives: twice covers any change of offset.
  let at = wall - (wallClockOf(wall, zone) - wall);
  at = wall - (wallClockOf(at, zone) - at);
  const earlier = at - 3_600_000;
  if (wallClockOf(earlier, zone) === wall) at = earlier;
  return new Date(at);
}
