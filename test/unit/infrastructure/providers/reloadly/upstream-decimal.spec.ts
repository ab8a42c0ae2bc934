import {
  decimalText,
  dividedBy,
  scaled,
  unscaled,
} from '../../../../../src/infrastructure/providers/reloadly/upstream-decimal';

describe('amounts in Reloadly answers, read and compared without floats', () => {
  it('reads a JSON number as the decimal text it was sent as', () => {
    expect(decimalText(5109.53732)).toBe('5109.53732');
    expect(decimalText(850.5)).toBe('850.5');
    expect(decimalText(1e-7)).toBe('0.0000001');
    expect(decimalText('12.30')).toBe('12.30');
    expect(decimalText('12,30')).toBeNull();
    expect(decimalText(null)).toBeNull();
  });

  it('compares as scaled integers and estimates a cost in the account currency rounded up', () => {
    expect(scaled('0.1') < scaled('0.10000001')).toBe(true);
    expect(unscaled(dividedBy('199.00', '83.25'))).toBe('2.40'); // 2.3903… rounded up: the float must cover at least this
    expect(unscaled(dividedBy('100', '1'))).toBe('100.00');
    expect(() => dividedBy('1', '0')).toThrow('not a usable rate');
  });
});
