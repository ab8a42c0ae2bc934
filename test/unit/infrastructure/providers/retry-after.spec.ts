import { retryAfterMsOf } from '../../../../src/infrastructure/providers/retry-after';

describe('Retry-After', () => {
  const now = Date.parse('2026-11-24T10:00:00.000Z');

  it('reads seconds and HTTP dates; a date past is now; anything else is none', () => {
    expect(retryAfterMsOf('30', now)).toBe(30_000);
    expect(retryAfterMsOf(' 0 ', now)).toBe(0);
    expect(retryAfterMsOf('Tue, 24 Nov 2026 10:01:30 GMT', now)).toBe(90_000);
    expect(retryAfterMsOf('Tue, 24 Nov 2026 09:00:00 GMT', now)).toBe(0);
    expect(retryAfterMsOf('soon', now)).toBeNull();
    expect(retryAfterMsOf('-5', now)).toBeNull();
    expect(retryAfterMsOf(null, now)).toBeNull();
  });
});
