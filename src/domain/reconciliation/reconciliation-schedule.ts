import { offsetAt, wallClockOf } from '../shared/zoned-time';

/** A time of day on the wall clock of some zone (RECONCILIATION_AT). */
export interface TimeOfDay {
  hour: number;
  minute: number;
}

const DAY_MS = 86_400_000;

/** How many days before the day just ended a run still judges again while they have orders in doubt (decision 0123). */
export const RECONCILIATION_LOOK_BACK_DAYS = 14;

/** "HH:MM", 00:00 to 23:59; null for anything else. */
export function parseTimeOfDay(text: string): TimeOfDay | null {
  const match = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(text);
  return match ? { hour: Number(match[1]), minute: Number(match[2]) } : null;
}

export const timeOfDayText = ({ hour, minute }: TimeOfDay): string =>
  `${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}`;

/** The UTC day (YYYY-MM-DD) of an instant. */
export const utcDayOf = (at: Date): string => at.toISOString().slice(0, 10);

/** The UTC day `days` after (or, negative, before) a day. */
export const dayAfter = (day: string, days = 1): string =>
  utcDayOf(new Date(Date.parse(`${day}T00:00:00.000Z`) + days * DAY_MS));

/** The day that ended last before an instant: yesterday, in UTC. */
export const lastEndedDay = (at: Date): string => dayAfter(utcDayOf(at), -1);

/**
 * The instant the time of day comes on a calendar date of the zone. A time the zone passes twice
 * that night (clocks turned back) comes the first time; a time it skips (clocks turned forward)
 * is read in the offset before the change, so it comes as much later as the clocks jumped.
 */
export function instantOnDate(date: string, at: TimeOfDay, zone: string): Date {
  const wall = Date.parse(`${date}T${timeOfDayText(at)}:00.000Z`);
  // The offsets a day either side of the wall time, and at it: whatever change the night has is one of them.
  const offsets = [offsetAt(wall - DAY_MS, zone), offsetAt(wall, zone), offsetAt(wall + DAY_MS, zone)];
  const matching = offsets
    .map((offset) => wall - offset)
    .filter((instant) => wallClockOf(instant, zone) === wall)
    .sort((a, b) => a - b);
  return new Date(matching.length > 0 ? matching[0] : wall - offsets[0]);
}

/**
 * When the run that judges a UTC day is due: the first time the time of day comes in the zone once
 * the day has ended. Each day has its own run (two may fall on one night near a change of clocks).
 */
export function reconciliationDueAt(day: string, at: TimeOfDay, zone: string): Date {
  const end = Date.parse(`${day}T00:00:00.000Z`) + DAY_MS;
  const localDate = new Date(wallClockOf(end, zone)).toISOString().slice(0, 10);
  for (let offset = 0; ; offset++) {
    const due = instantOnDate(dayAfter(localDate, offset), at, zone);
    if (due.getTime() >= end) return due;
  }
}
