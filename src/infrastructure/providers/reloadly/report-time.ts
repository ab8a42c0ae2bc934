/**
 * Reloadly's report times: "yyyy-MM-dd HH:mm:ss" wall-clock times without a zone. The zone they
 * are in is RELOADLY_REPORT_TIME_ZONE (an IANA name; docs/decisions/0043-reloadly-report-times.md):
 * the report's range parameters are written in it, and its dates are read in it.
 */
import { instantOfIsoText, wallClockOf, wallClockText } from '../../../domain/shared/zoned-time';

export { isTimeZone } from '../../../domain/shared/zoned-time';

export function reportTimeOf(at: Date, zone: string): string {
  return new Date(wallClockOf(Math.floor(at.getTime() / 1000) * 1000, zone))
    .toISOString()
    .slice(0, 19)
    .replace('T', ' ');
}

/**
 * The instant of a report time written in the zone (a text with its own offset or `Z` is taken as it says). Of a
 * repeated wall-clock time the earlier is taken; a skipped one reads with the offset after the change. Null when it is
 * no time.
 */
export function instantOfReportTime(text: string, zone: string): Date | null {
  const written = wallClockText(text);
  if (written === null) return instantOfIsoText(text);
  const fraction = written % 1000;
  const wall = written - fraction;
  // The zone's offset at the wall time read as UTC, then at the instant that gives: twice covers any change of offset.
  let at = wall - (wallClockOf(wall, zone) - wall);
  at = wall - (wallClockOf(at, zone) - at);
  const earlier = at - 3_600_000;
  if (wallClockOf(earlier, zone) === wall) at = earlier;
  return new Date(at + fraction);
}
