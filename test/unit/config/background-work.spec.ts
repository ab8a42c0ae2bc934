import { loadConfig } from '../../../src/config/load-config';

const server = {
  EVENT_STORE: 'postgres',
  DATABASE_URL: 'postgres://db/service',
  API_KEY_SECRET: 'k'.repeat(32),
  ADMIN_TOKEN: 'a'.repeat(32),
};

describe('BACKGROUND_WORK: where projections and jobs run', () => {
  it('runs them on the event loop that serves HTTP unless told otherwise', () => {
    expect(loadConfig(server).backgroundWork).toBe('inline');
    expect(
      loadConfig({ ...server, EVENT_STORE: 'embedded', DATABASE_URL: '', DATA_DIR: '/tmp/never-written' })
        .backgroundWork,
    ).toBe('inline');
  });

  it('runs them on a background thread when asked, with PostgreSQL', () => {
    expect(loadConfig({ ...server, BACKGROUND_WORK: 'thread' }).backgroundWork).toBe('thread');
  });

  it('runs them on a background thread in embedded mode too, which connects to the embedded server', () => {
    expect(
      loadConfig({ ...server, EVENT_STORE: 'embedded', DATA_DIR: '/tmp/never-written', BACKGROUND_WORK: 'thread' })
        .backgroundWork,
    ).toBe('thread');
  });

  it('refuses an unknown value at startup, naming the variable', () => {
    expect(() => loadConfig({ ...server, BACKGROUND_WORK: 'threads' })).toThrow(
      /BACKGROUND_WORK must be inline or thread/,
    );
  });
});
