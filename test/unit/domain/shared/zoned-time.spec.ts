import { instantOfIsoText, wallClockText } from '../../../../src/domain/shared/zoned-time';

describe('times written as text', () => {
  it('reads an ISO 8601 instant with its offset or Z, and nothing looser', () => {
    expect(instantOfIsoText('2026-11-24T18:35:09+05:30')?.toISOString()).toBe('2026-11-24T13:05:09.000Z');
    expect(instantOfIsoText('2026-11-24T13:05:09Z')?.toISOString()).toBe('2026-11-24T13:05:09.000Z');
    expect(instantOfIsoText('2026-11-24T13:05:09.5-0500')?.toISOString()).toBe('2026-11-24T18:05:09.500Z');
    for (const text of [
      '',
      '1',
      '2026-11-24',
      '2026-11-24T13:05:09',
      '2026-02-29T10:00:00Z',
      'Tue, 24 Nov 2026 13:05:09 GMT',
    ])
      expect({ text, at: instantOfIsoText(text) }).toEqual({ text, at: null });
  });

  it('reads a wall-clock time without a zone as the same fields in UTC, refusing a field out of range', () => {
    expect(wallClockText('2026-11-24 13:05:09')).toBe(Date.parse('2026-11-24T13:05:09Z'));
    expect(wallClockText('2026-11-24T13:05')).toBe(Date.parse('2026-11-24T13:05:00Z'));
    expect(wallClockText('2026-11-31 13:05:09')).toBeNull();
    expect(wallClockText('2026-11-24 13:05:09Z')).toBeNull();
  });
});
