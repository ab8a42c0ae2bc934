import { loadConfig } from '../../../src/config/load-config';

const server = {
  EVENT_STORE: 'postgres',
  DATABASE_URL: 'postgres://db/service',
  API_KEY_SECRET: 'k'.repeat(32),
  ADMIN_TOKEN: 'a'.repeat(32),
};

describe('PROVIDER_TIMEOUT_MS: how long a provider has to answer one call', () => {
  it('is 20 seconds unless told otherwise', () => {
    expect(loadConfig(server).providerTimeoutMs).toBe(20_000);
  });

  it('takes milliseconds from 100 to 120,000, well inside the five-minute job lease', () => {
    expect(loadConfig({ ...server, PROVIDER_TIMEOUT_MS: '100' }).providerTimeoutMs).toBe(100);
    expect(loadConfig({ ...server, PROVIDER_TIMEOUT_MS: '120000' }).providerTimeoutMs).toBe(120_000);
    for (const raw of ['99', '120001', '1.5', 'soon']) {
      expect(() => loadConfig({ ...server, PROVIDER_TIMEOUT_MS: raw })).toThrow(
        /PROVIDER_TIMEOUT_MS must be an integer between 100 and 120000/,
      );
    }
  });
});
