import { loadConfig } from '../../../src/config/load-config';

const server = {
  EVENT_STORE: 'postgres',
  DATABASE_URL: 'postgres://db/service',
  API_KEY_SECRET: 'k'.repeat(32),
  ADMIN_TOKEN: 'a'.repeat(32),
};
const reloadly = { LIVE_PROVIDER: 'reloadly', RELOADLY_CLIENT_ID: 'client', RELOADLY_CLIENT_SECRET: 'secret' };

describe('RELOADLY_REPORT_TIME_ZONE', () => {
  it('is America/New_York unless set: the zone Reloadly’s documented report dates are in', () => {
    expect(loadConfig({ ...server, ...reloadly }).reloadly?.reportTimeZone).toBe('America/New_York');
  });

  it('takes any IANA zone, UTC included', () => {
    expect(loadConfig({ ...server, ...reloadly, RELOADLY_REPORT_TIME_ZONE: 'UTC' }).reloadly?.reportTimeZone).toBe(
      'UTC',
    );
    expect(
      loadConfig({ ...server, ...reloadly, RELOADLY_REPORT_TIME_ZONE: 'Asia/Kolkata' }).reloadly?.reportTimeZone,
    ).toBe('Asia/Kolkata');
  });

  it('refuses, by name, a zone the runtime does not know', () => {
    expect(() => loadConfig({ ...server, ...reloadly, RELOADLY_REPORT_TIME_ZONE: 'EST5EDT-ish' })).toThrow(
      /RELOADLY_REPORT_TIME_ZONE must be an IANA time zone such as America\/New_York or UTC \(got "EST5EDT-ish"\)/,
    );
  });
});
