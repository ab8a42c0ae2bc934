import { Money } from '../../../../src/domain/money/money';

describe('money amounts', () => {
  describe('reading a decimal text', () => {
    it.each([
      ['1000', 100000n],
      ['12.5', 1250n],
      ['0.01', 1n],
      ['0', 0n],
      ['007.10', 710n],
      ['999999999999999', 99999999999999900n],
    ])('reads "%s" as exactly %p minor units', (text, minor) => {
      expect(Money.parse(text, 'INR')?.minor).toBe(minor);
    });

    it('reads back the four-decimal amounts the service itself prints and stores', () => {
      expect(Money.parse('100.0000', 'BDT')?.minor).toBe(10000n);
      expect(Money.parse('850.5000', 'BDT')?.minor).toBe(85050n);
    });

    it.each([
      ['1e3', 'an exponent'],
      ['1E3', 'an upper-case exponent'],
      ['1.5e2', 'an exponent after a fraction'],
      ['-1', 'a minus sign'],
      ['+1', 'a plus sign'],
      ['0.001', 'a third decimal place in a two-digit currency'],
      ['10.005', 'a fraction of a paisa'],
      ['1234567890123456', 'sixteen integer digits'],
      ['99999999999999999999', 'twenty integer digits'],
      ['', 'nothing'],
      [' 1', 'a leading space'],
      ['1 ', 'a trailing space'],
      ['1.', 'a bare decimal point'],
      ['.5', 'no integer part'],
      ['1,000', 'a thousands separator'],
      ['1.2.3', 'two decimal points'],
      ['0x10', 'hexadecimal'],
      ['Infinity', 'infinity'],
      ['NaN', 'not a number'],
      ['١٠٠', 'non-ASCII digits'],
    ])('refuses "%s" (%s)', (text) => {
      expect(Money.parse(text, 'INR')).toBeNull();
    });
  });

  describe('reading a JSON number from a request', () => {
    it('reads plain amounts exactly', () => {
      expect(Money.fromJsonNumber(100, 'INR')?.minor).toBe(10000n);
      expect(Money.fromJsonNumber(100.5, 'SGD')?.minor).toBe(10050n);
      expect(Money.fromJsonNumber(0.1, 'SGD')?.minor).toBe(10n);
    });

    it('refuses a float that is not an exact amount of cents', () => {
      expect(Money.fromJsonNumber(0.1 + 0.2, 'SGD')).toBeNull();
      expect(Money.fromJsonNumber(10.005, 'SGD')).toBeNull();
    });

    it('refuses negative, infinite, not-a-number and amounts too large to be exact', () => {
      expect(Money.fromJsonNumber(-1, 'INR')).toBeNull();
      expect(Money.fromJsonNumber(Number.POSITIVE_INFINITY, 'INR')).toBeNull();
      expect(Money.fromJsonNumber(Number.NaN, 'INR')).toBeNull();
      expect(Money.fromJsonNumber(1e21, 'INR')).toBeNull();
      expect(Money.fromJsonNumber(1e-7, 'INR')).toBeNull();
    });
  });

  describe('printing', () => {
    it('prints with four decimal places when asked, as order amounts are shown', () => {
      expect(Money.ofMinor(10000n, 'INR').toDecimal(4)).toBe('100.0000');
      expect(Money.ofMinor(5n, 'BDT').toDecimal(4)).toBe('0.0500');
      expect(Money.ofMinor(85050n, 'SGD').toDecimal(4)).toBe('850.5000');
    });

    it('prints with the currency’s two decimal places by default, as balances are shown', () => {
      expect(Money.ofMinor(100000n, 'INR').toDecimal()).toBe('1000.00');
      expect(Money.ofMinor(1n, 'INR').toDecimal()).toBe('0.01');
      expect(Money.zero('SGD').toDecimal()).toBe('0.00');
      expect(Money.ofMinor(-150n, 'INR').toDecimal()).toBe('-1.50');
    });

    it('prints amounts beyond the range of a float without losing a digit', () => {
      expect(Money.ofMinor(99999999999999999n, 'INR').toDecimal(4)).toBe('999999999999999.9900');
    });

    it('reads back exactly what it prints', () => {
      for (const minor of [0n, 1n, 99n, 100n, 123456789n, 99999999999999999n]) {
        const money = Money.ofMinor(minor, 'BDT');
        expect(Money.parse(money.toDecimal(), 'BDT')?.equals(money)).toBe(true);
        expect(Money.parse(money.toDecimal(4), 'BDT')?.equals(money)).toBe(true);
      }
    });
  });

  describe('arithmetic', () => {
    const inr = (text: string): Money => {
      const money = Money.parse(text, 'INR');
      if (!money) throw new Error(`bad test amount ${text}`);
      return money;
    };

    it('adds and subtracts exactly, with no float rounding', () => {
      expect(inr('0.10').plus(inr('0.20')).toDecimal()).toBe('0.30');
      expect(inr('1000.00').minus(inr('999.99')).toDecimal()).toBe('0.01');
    });

    it('compares amounts', () => {
      expect(inr('99.99').isLessThan(inr('100.00'))).toBe(true);
      expect(inr('100.00').isLessThan(inr('100.00'))).toBe(false);
      expect(inr('0.01').isPositive()).toBe(true);
      expect(inr('0').isPositive()).toBe(false);
      expect(inr('1').minus(inr('2')).isNegative()).toBe(true);
    });

    it('never mixes currencies', () => {
      const rupees = inr('10');
      const dollars = Money.ofMinor(1000n, 'SGD');
      expect(() => rupees.plus(dollars)).toThrow(/currency mismatch/);
      expect(() => rupees.minus(dollars)).toThrow(/currency mismatch/);
      expect(() => rupees.isLessThan(dollars)).toThrow(/currency mismatch/);
      expect(rupees.equals(Money.ofMinor(1000n, 'SGD'))).toBe(false);
    });
  });
});
