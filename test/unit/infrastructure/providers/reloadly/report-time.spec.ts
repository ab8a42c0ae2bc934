import {
  instantOfReportTime,
  isTimeZone,
  reportTimeOf,
} from '../../../../../src/infrastructure/providers/reloadly/report-time';

/** Reloadly's report times are wall-clock times in RELOADLY_REPORT_TIME_ZONE (docs/decisions/0043-reloadly-report-times.md). */
describe('Reloadly report times in a time zone', () => {
  const NEW_YORK = 'America/New_York';

  it('reads the documentation’s own examples as the UTC times beside them (December: UTC-5, late March: UTC-4)', () => {
    // A topup dated 2021-12-06 08:13:39 whose balance was updated at 13:13:39 (UTC), and a payment of 2022-03-29.
    expect(instantOfReportTime('2021-12-06 08:13:39', NEW_YORK)?.toISOString()).toBe('2021-12-06T13:13:39.000Z');
    expect(instantOfReportTime('2022-03-29 07:04:21', NEW_YORK)?.toISOString()).toBe('2022-03-29T11:04:21.000Z');
  });

  it('writes an instant in the zone, to the second', () => {
    expect(reportTimeOf(new Date('2022-03-29T11:04:21.750Z'), NEW_YORK)).toBe('2022-03-29 07:04:21');
    expect(reportTimeOf(new Date('2026-01-01T00:00:00.900Z'), 'UTC')).toBe('2026-01-01 00:00:00');
    expect(reportTimeOf(new Date('2026-01-01T00:00:00Z'), 'Asia/Kolkata')).toBe('2026-01-01 05:30:00');
  });

  it('reads back what it writes, in every zone the service’s corridors and Reloadly use', () => {
    for (const zone of ['UTC', NEW_YORK, 'Asia/Kolkata', 'Asia/Dhaka', 'Asia/Singapore']) {
      for (const at of [
        '2026-03-08T06:59:59Z',
        '2026-03-08T07:00:00Z',
        '2026-11-01T07:00:00Z',
        '2026-07-01T12:00:00Z',
      ]) {
        expect(instantOfReportTime(reportTimeOf(new Date(at), zone), zone)?.toISOString()).toBe(
          new Date(at).toISOString(),
        );
      }
    }
  });

  it('takes the earlier of a wall-clock time the zone passes twice, and takes a time with its own offset as it says', () => {
    expect(instantOfReportTime('2026-11-01 01:30:00', NEW_YORK)?.toISOString()).toBe('2026-11-01T05:30:00.000Z');
    expect(instantOfReportTime('2026-01-01T10:00:00Z', NEW_YORK)?.toISOString()).toBe('2026-01-01T10:00:00.000Z');
    expect(instantOfReportTime('not a time', NEW_YORK)).toBeNull();
  });

  it('reads no time into a text that is not one: a field out of range, a bare number, a date without its time', () => {
    for (const text of [
      '',
      '1',
      '2026-11-24',
      '2026-13-01 10:00:00',
      '2026-02-30 10:00:00',
      '2026-11-24 25:00:00',
      '2026-11-24 10:61:00',
      'Nov 24 2026 10:00:00',
      '2026-11-24T10:00:00+25:00',
    ])
      expect({ text, at: instantOfReportTime(text, NEW_YORK) }).toEqual({ text, at: null });
    expect(instantOfReportTime('2026-11-24 10:00', NEW_YORK)?.toISOString()).toBe('2026-11-24T15:00:00.000Z');
    expect(instantOfReportTime('2026-11-24 10:00:00.250', NEW_YORK)?.toISOString()).toBe('2026-11-24T15:00:00.250Z');
    expect(instantOfReportTime('2021-12-06T08:13:39.000+0000', NEW_YORK)?.toISOString()).toBe(
      '2021-12-06T08:13:39.000Z',
    );
  });

  it('knows IANA zone names and refuses others', () => {
    expect(isTimeZone(NEW_YORK)).toBe(true);
    expect(isTimeZone('UTC')).toBe(true);
    expect(isTimeZone('Mars/Olympus_Mons')).toBe(false);
  });
});
