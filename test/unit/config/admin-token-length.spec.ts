import { loadConfig } from '../../../src/config/load-config';

const server = { EVENT_STORE: 'postgres', DATABASE_URL: 'postgres://db/service', API_KEY_SECRET: 'k'.repeat(32) };

describe('the break-glass token (ADMIN_TOKEN)', () => {
  it('is refused under 32 characters, with a message that says what to set', () => {
    expect(() => loadConfig({ ...server, ADMIN_TOKEN: 'a'.repeat(31) })).toThrow(
      /ADMIN_TOKEN \(the break-glass owner token\) must be at least 32 characters/,
    );
  });

  it('is taken at 32 characters', () => {
    expect(loadConfig({ ...server, ADMIN_TOKEN: 'a'.repeat(32) }).adminToken).toBe('a'.repeat(32));
  });
});
