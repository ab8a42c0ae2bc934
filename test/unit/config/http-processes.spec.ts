import { loadConfig } from '../../../src/config/load-config';

const server = {
  EVENT_STORE: 'postgres',
  DATABASE_URL: 'postgres://db/service',
  API_KEY_SECRET: 'k'.repeat(32),
  ADMIN_TOKEN: 'a'.repeat(32),
};

describe('HTTP_PROCESSES: service processes sharing the port', () => {
  it('is one process unless told otherwise', () => {
    expect(loadConfig(server).httpProcesses).toBe(1);
  });

  it('takes a count with PostgreSQL', () => {
    expect(loadConfig({ ...server, HTTP_PROCESSES: '4' }).httpProcesses).toBe(4);
  });

  it('takes a count in embedded mode too: the processes share the server the first one starts', () => {
    expect(
      loadConfig({
        ...server,
        EVENT_STORE: 'embedded',
        DATABASE_URL: '',
        DATA_DIR: '/tmp/never-written',
        HTTP_PROCESSES: '2',
      }).httpProcesses,
    ).toBe(2);
  });

  it('refuses a count that is not a whole number from 1 to 64', () => {
    for (const raw of ['0', '65', '1.5', 'two']) {
      expect(() => loadConfig({ ...server, HTTP_PROCESSES: raw })).toThrow(
        /HTTP_PROCESSES must be an integer between 1 and 64/,
      );
    }
  });
});
