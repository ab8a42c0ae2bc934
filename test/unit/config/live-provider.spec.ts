import { loadConfig } from '../../../src/config/load-config';

const server = {
  EVENT_STORE: 'postgres',
  DATABASE_URL: 'postgres://db/service',
  API_KEY_SECRET: 'k'.repeat(32),
  ADMIN_TOKEN: 'a'.repeat(16),
};
const reloadly = { LIVE_PROVIDER: 'reloadly', RELOADLY_CLIENT_ID: 'client', RELOADLY_CLIENT_SECRET: 'secret' };

describe('LIVE_PROVIDER and the RELOADLY_* variables', () => {
  it('has no live provider unless one is named', () => {
    expect(loadConfig(server)).toMatchObject({ liveProvider: null, reloadly: null });
  });

  it('uses Reloadly’s production hosts by default', () => {
    expect(loadConfig({ ...server, ...reloadly })).toMatchObject({
      liveProvider: 'reloadly',
      reloadly: {
        clientId: 'client',
        clientSecret: 'secret',
        authUrl: 'https://auth.reloadly.com',
        topupsUrl: 'https://topups.reloadly.com',
        utilitiesUrl: 'https://utilities.reloadly.com',
        lowFloatThreshold: null,
      },
    });
  });

  it('takes other hosts (Reloadly’s sandbox, a simulator), and a low-float threshold', () => {
    const config = loadConfig({
      ...server,
      ...reloadly,
      RELOADLY_TOPUPS_URL: 'https://topups-sandbox.reloadly.com/',
      RELOADLY_UTILITIES_URL: 'http://127.0.0.1:4010/utilities',
      RELOADLY_LOW_FLOAT_THRESHOLD: '250.50',
    });
    expect(config.reloadly).toMatchObject({
      topupsUrl: 'https://topups-sandbox.reloadly.com',
      utilitiesUrl: 'http://127.0.0.1:4010/utilities',
      lowFloatThreshold: '250.50',
    });
  });

  it('refuses, at once and by name, missing credentials, a bad URL, a bad threshold and an unknown provider', () => {
    let message = '';
    try {
      loadConfig({
        ...server,
        LIVE_PROVIDER: 'reloadly',
        RELOADLY_AUTH_URL: 'auth.reloadly.com',
        RELOADLY_LOW_FLOAT_THRESHOLD: '1e3',
      });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('RELOADLY_CLIENT_ID is required when LIVE_PROVIDER=reloadly');
    expect(message).toContain('RELOADLY_CLIENT_SECRET is required when LIVE_PROVIDER=reloadly');
    expect(message).toContain('RELOADLY_AUTH_URL must be an http(s) URL');
    expect(message).toContain('RELOADLY_LOW_FLOAT_THRESHOLD must be a decimal amount');
    expect(() => loadConfig({ ...server, LIVE_PROVIDER: 'dtone' })).toThrow(/LIVE_PROVIDER must be reloadly or unset/);
  });
});
