import { resolutionContradicts } from '../../../../src/domain/transaction/resolution-rule';

describe('what a manual resolution may say against the provider asked at that moment', () => {
  it.each(['succeeded', 'pending', 'unknown', 'mismatch', 'no_answer'] as const)(
    'does not fail and refund an order the provider answers %s',
    (word) => expect(resolutionContradicts('failed', word)).toBe(true),
  );

  it('fails an order the provider answers failed, and does not settle it', () => {
    expect(resolutionContradicts('failed', 'failed')).toBe(false);
    expect(resolutionContradicts('success', 'failed')).toBe(true);
  });

  it.each(['succeeded', 'pending', 'unknown', 'mismatch', 'no_answer'] as const)(
    'settles an order the provider answers %s',
    (word) => expect(resolutionContradicts('success', word)).toBe(false),
  );

  it('fails an order nothing of which was ever sent when the provider has no record of it, but not one it shows', () => {
    expect(resolutionContradicts('failed', 'unknown', true)).toBe(false);
    expect(resolutionContradicts('failed', 'no_answer', true)).toBe(false);
    expect(resolutionContradicts('failed', 'pending', true)).toBe(true);
    expect(resolutionContradicts('failed', 'succeeded', true)).toBe(true);
  });
});
