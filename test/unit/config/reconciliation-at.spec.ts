import { loadConfig } from '../../../src/config/load-config';

const server = {
  EVENT_STORE: 'postgres',
  DATABASE_URL: 'postgres://db/service',
  API_KEY_SECRET: 'k'.repeat(32),
  ADMIN_TOKEN: 'a'.repeat(32),
};

/** When daily reconciliation runs by itself (docs/decisions/0123-scheduled-reconciliation.md). */
describe('RECONCILIATION_AT', () => {
  it('is 02:30 (in each provider’s report zone) unless set', () => {
    expect(loadConfig(server).reconciliationAt).toEqual({ hour: 2, minute: 30 });
    expect(loadConfig({ ...server, RECONCILIATION_AT: '' }).reconciliationAt).toEqual({ hour: 2, minute: 30 });
  });

  it('takes any time of day as HH:MM, and off for no run by itself', () => {
    expect(loadConfig({ ...server, RECONCILIATION_AT: '23:05' }).reconciliationAt).toEqual({ hour: 23, minute: 5 });
    expect(loadConfig({ ...server, RECONCILIATION_AT: 'off' }).reconciliationAt).toBeNull();
  });

  it('refuses to start, by name, on anything else', () => {
    for (const wrong of ['2:30', '24:00', '02:30:00', '2am', 'OFF'])
      expect(() => loadConfig({ ...server, RECONCILIATION_AT: wrong })).toThrow(
        `RECONCILIATION_AT must be a time of day HH:MM (00:00 to 23:59) in each provider's report time zone, or off (got "${wrong}")`,
      );
  });
});
