import { loadConfig } from '../../../src/config/load-config';

const server = {
  EVENT_STORE: 'postgres',
  DATABASE_URL: 'postgres://db/service',
  API_KEY_SECRET: 'k'.repeat(32),
  ADMIN_TOKEN: 'a'.repeat(32),
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
    expect(() => loadConfig({ ...server, LIVE_PROVIDER: 'dtone' })).toThrow(
      /LIVE_PROVIDER must be one of reloadly, setu or unset/,
    );
  });
});

const setu = {
  SETU_CLIENT_ID: 'setu-client',
  SETU_CLIENT_SECRET: 'setu-secret',
  SETU_PARTNER_ID: '1001',
  SETU_AGENT_ID: 'AX01AI06512391457204',
  SETU_AGENT_IP: '124.170.23.24',
  SETU_AGENT_MAC: '48-4D-7E-CB-DB-6F',
  SETU_AGENT_MOBILE: '9876543210',
};

describe('LIVE_PROVIDERS and the SETU_* variables', () => {
  it('runs several live providers at once, in the order given', () => {
    expect(
      loadConfig({ ...server, ...reloadly, LIVE_PROVIDER: '', LIVE_PROVIDERS: 'reloadly, setu', ...setu }),
    ).toMatchObject({
      liveProvider: 'reloadly',
      liveProviders: ['reloadly', 'setu'],
      reloadly: { clientId: 'client' },
      setu: {
        url: 'https://coudc.setu.co',
        clientId: 'setu-client',
        clientSecret: 'setu-secret',
        partnerId: '1001',
        agentId: 'AX01AI06512391457204',
        agentIp: '124.170.23.24',
        agentMac: '48-4D-7E-CB-DB-6F',
        agentMobile: '9876543210',
        remitterName: 'Partner prepaid wallet',
      },
    });
    expect(loadConfig({ ...server, LIVE_PROVIDER: 'setu', ...setu, SETU_URL: 'http://127.0.0.1:4020/' })).toMatchObject(
      {
        liveProviders: ['setu'],
        reloadly: null,
        setu: { url: 'http://127.0.0.1:4020' },
      },
    );
  });

  it('refuses, at once and by name, missing Setu settings, bad values, both forms at once and unknown names', () => {
    let message = '';
    try {
      loadConfig({
        ...server,
        LIVE_PROVIDERS: 'setu',
        SETU_URL: 'coudc.setu.co',
        SETU_PARTNER_ID: 'acme',
        SETU_AGENT_IP: '::1',
        SETU_AGENT_MAC: 'not-a-mac',
        SETU_AGENT_MOBILE: '12345',
      });
    } catch (error) {
      message = (error as Error).message;
    }
    for (const expected of [
      'SETU_CLIENT_ID is required when setu is a live provider',
      'SETU_CLIENT_SECRET is required when setu is a live provider',
      'SETU_AGENT_ID is required when setu is a live provider',
      'SETU_URL must be an http(s) URL',
      'SETU_PARTNER_ID must be the numeric partner id',
      'SETU_AGENT_IP must be an IPv4 address',
      'SETU_AGENT_MAC must be a MAC address',
      'SETU_AGENT_MOBILE must be a 10-digit Indian mobile number',
    ])
      expect(message).toContain(expected);
    expect(() => loadConfig({ ...server, ...reloadly, LIVE_PROVIDERS: 'reloadly' })).toThrow(/both set/);
    expect(() => loadConfig({ ...server, LIVE_PROVIDERS: 'reloadly,dtone' })).toThrow(/LIVE_PROVIDERS must list/);
    expect(() => loadConfig({ ...server, ...setu, LIVE_PROVIDERS: 'setu,setu' })).toThrow(/twice/);
  });
});
