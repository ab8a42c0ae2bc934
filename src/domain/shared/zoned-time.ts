/**
 * Wall-clock times in an IANA time zone, read with the runtime's own zone data (Intl): no offset
 * table of our own, so a change of a zone's rules arrives with the runtime.
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

/** Whether the runtime knows the zone name. */
export function isTimeZone(zone: string): boolean {
  try {
    formatOf(zone);
    return true;
  } catch {
    return false;
  }
}

/** The wall-clock fields of an instant in a zone, as the milliseconds of a UTC date with the same fields (to the second). */
export function wallClockOf(at: number, zone: string): number {
  const parts = Object.fromEntries(
    formatOf(zone)
      .formatToParts(new Date(at))
      .map((part) => [part.type, part.value]),
  );
  const field = (name: string) => Number(parts[name]);
  return Date.UTC(field('year'), field('month') - 1, field('day'), field('hour'), field('minute'), field('second'));
}

/** The zone's offset from UTC at an instant, in milliseconds (New York in winter: -5 hours). */
export const offsetAt = (at: number, zone: string): number => wallClockOf(at, zone) - Math.floor(at / 1000) * 1000;

const WALL_FIELDS = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?/;

/** A calendar date and time of day as written ("2026-11-24 13:05:09"), as UTC milliseconds; null when a field is out of range. */
function wallFieldsOf(match: RegExpExecArray): number | null {
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map((field) => Number(field ?? '0'));
  const wall = Date.UTC(year, month - 1, day, hour, minute, second);
  const back = new Date(wall);
  // Date.UTC carries an overflow into the next field (month 13, 25 o'clock): such a text names no time.
  const same =
    back.getUTCFullYear() === year &&
    back.getUTCMonth() === month - 1 &&
    back.getUTCDate() === day &&
    back.getUTCHours() === hour &&
    back.getUTCMinutes() === minute &&
    back.getUTCSeconds() === second;
  return same ? wall + Math.floor(Number(`0.${match[7] ?? '0'}`) * 1000) : null;
}

/** A wall-clock time without a zone ("yyyy-MM-dd HH:mm:ss", `T` or space, seconds optional) as UTC milliseconds of the same fields; null otherwise. */
export function wallClockText(text: string): number | null {
  const match = new RegExp(`${WALL_FIELDS.source}$`).exec(text.trim());
  return match ? wallFieldsOf(match) : null;
}

/**
 * An instant written in ISO 8601 with its offset or `Z` ("2026-11-24T18:35:09+05:30"); null for
 * anything else, a time without an offset included (Date.parse would read "1" as the year 2001).
 */
export function instantOfIsoText(text: string): Date | null {
  const match = new RegExp(`${WALL_FIELDS.source}(Z|([+-])(\\d{2}):?(\\d{2}))$`, 'i').exec(text.trim());
  if (!match) return null;
  const wall = wallFieldsOf(match);
  if (wall === null) return null;
  if (match[8].toUpperCase() === 'Z') return new Date(wall);
  const [hours, minutes] = [Number(match[10]), Number(match[11])];
  if (hours > 23 || minutes > 59) return null;
  const offset = (match[9] === '-' ? -1 : 1) * (hours * 60 + minutes) * 60_000;
  return new Date(wall - offset);
}
