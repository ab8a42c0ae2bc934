import { loadConfig } from '../../../src/config/load-config';

const server = {
  EVENT_STORE: 'postgres',
  DATABASE_URL: 'postgres://db/service',
  API_KEY_SECRET: 'k'.repeat(32),
  ADMIN_TOKEN: 'a'.repeat(32),
};

describe('LOG_FORMAT: JSON lines or readable lines', () => {
  it('writes JSON lines when its output is not a terminal and nothing is said', () => {
    expect(process.stdout.isTTY).toBeFalsy();
    expect(loadConfig(server).logFormat).toBe('json');
  });

  it('takes json or pretty as told', () => {
    expect(loadConfig({ ...server, LOG_FORMAT: 'pretty' }).logFormat).toBe('pretty');
    expect(loadConfig({ ...server, LOG_FORMAT: 'json' }).logFormat).toBe('json');
  });

  it('refuses any other format', () => {
    expect(() => loadConfig({ ...server, LOG_FORMAT: 'yaml' })).toThrow(/LOG_FORMAT must be json or pretty/);
  });
});
