import {
  dayAfter,
  instantOnDate,
  lastEndedDay,
  parseTimeOfDay,
  reconciliationDueAt,
  TimeOfDay,
} from '../../../../src/domain/reconciliation/reconciliation-schedule';
import { wallClockOf } from '../../../../src/domain/shared/zoned-time';

const NEW_YORK = 'America/New_York';
const KOLKATA = 'Asia/Kolkata';
const AT_0230: TimeOfDay = { hour: 2, minute: 30 };
const iso = (date: Date) => date.toISOString();

/** RECONCILIATION_AT in a provider's report zone (docs/decisions/0123-scheduled-reconciliation.md). */
describe('when the daily reconciliation of a day runs', () => {
  it('reads RECONCILIATION_AT as HH:MM, 00:00 to 23:59, and nothing else', () => {
    expect(parseTimeOfDay('02:30')).toEqual({ hour: 2, minute: 30 });
    expect(parseTimeOfDay('00:00')).toEqual({ hour: 0, minute: 0 });
    expect(parseTimeOfDay('23:59')).toEqual({ hour: 23, minute: 59 });
    for (const wrong of ['2:30', '24:00', '12:60', '02:30:00', '0230', ' 02:30', 'noon', ''])
      expect(parseTimeOfDay(wrong)).toBeNull();
  });

  it('runs at the first RECONCILIATION_AT of the zone once the UTC day is over: New York in winter and in summer', () => {
    expect(iso(reconciliationDueAt('2026-11-24', AT_0230, NEW_YORK))).toBe('2026-11-25T07:30:00.000Z');
    expect(iso(reconciliationDueAt('2026-07-01', AT_0230, NEW_YORK))).toBe('2026-07-02T06:30:00.000Z');
    expect(iso(reconciliationDueAt('2026-11-24', { hour: 0, minute: 0 }, 'UTC'))).toBe('2026-11-25T00:00:00.000Z');
  });

  it('waits for the next night in a zone whose RECONCILIATION_AT comes before the UTC day ends (India)', () => {
    // 02:30 in India on the 25th is 21:00 UTC on the 24th: the day is not over yet; the next night's is.
    expect(iso(reconciliationDueAt('2026-11-24', AT_0230, KOLKATA))).toBe('2026-11-25T21:00:00.000Z');
  });

  it('runs a time the clocks skip an hour later by the clock, and a time they pass twice the first time', () => {
    // New York skips 02:00-03:00 on 2026-03-08: 02:30 is read in the winter offset, 03:30 summer time.
    expect(iso(instantOnDate('2026-03-08', AT_0230, NEW_YORK))).toBe('2026-03-08T07:30:00.000Z');
    expect(iso(reconciliationDueAt('2026-03-07', AT_0230, NEW_YORK))).toBe('2026-03-08T07:30:00.000Z');
    // New York passes 01:00-02:00 twice on 2026-11-01: the first 01:30 (summer time) is taken.
    expect(iso(instantOnDate('2026-11-01', { hour: 1, minute: 30 }, NEW_YORK))).toBe('2026-11-01T05:30:00.000Z');
    expect(iso(reconciliationDueAt('2026-10-31', { hour: 1, minute: 30 }, NEW_YORK))).toBe('2026-11-01T05:30:00.000Z');
  });

  it('gives every day of a year its own run, after the day and within a day of its end, at the time asked (changes of clocks aside)', () => {
    for (const zone of ['UTC', NEW_YORK, KOLKATA, 'Europe/London', 'Australia/Sydney', 'America/Santiago']) {
      for (const at of [AT_0230, { hour: 0, minute: 15 }, { hour: 23, minute: 45 }]) {
        let day = '2026-01-01';
        let previous = 0;
        for (let count = 0; count < 366; count++, day = dayAfter(day)) {
          const due = reconciliationDueAt(day, at, zone).getTime();
          const end = Date.parse(`${day}T00:00:00.000Z`) + 86_400_000;
          expect(due).toBeGreaterThanOrEqual(end);
          expect(due - end).toBeLessThan(25 * 3_600_000);
          expect(due).toBeGreaterThanOrEqual(previous);
          previous = due;
          const wall = new Date(wallClockOf(due, zone));
          const shifted = wall.getUTCHours() * 60 + wall.getUTCMinutes() - (at.hour * 60 + at.minute);
          expect([0, 60]).toContain(shifted); // 60 only where the clocks jumped over the time
        }
      }
    }
  });

  it('counts days in UTC', () => {
    expect(dayAfter('2026-12-31')).toBe('2027-01-01');
    expect(dayAfter('2026-03-01', -1)).toBe('2026-02-28');
    expect(lastEndedDay(new Date('2026-11-25T00:00:00.000Z'))).toBe('2026-11-24');
    expect(lastEndedDay(new Date('2026-11-25T23:59:59.999Z'))).toBe('2026-11-24');
  });
});
