import fc from 'fast-check';
import { firstInexactNumber, isExactAsDouble } from '../../../../../src/interface/http/validation/exact-json-numbers';

describe('reading JSON numbers exactly', () => {
  it.each(['0', '-0', '100', '100.50', '0.1', '0.01', '1e2', '1.005E+2', '123456789012345', '-12.5'])(
    '%s survives being read as a double',
    (literal) => {
      expect(isExactAsDouble(literal)).toBe(true);
    },
  );

  it.each([
    '199.999999999999999',
    '100.0000000000000001',
    '9007199254740993',
    '12345678901234567890',
    '1e400',
    '-1e400',
    '0.30000000000000001',
    `0.${'0'.repeat(330)}1`,
    `1${'0'.repeat(310)}`,
  ])('%s does not survive being read as a double', (literal) => {
    expect(isExactAsDouble(literal)).toBe(false);
  });

  it('names where the first inexact number is, through objects and arrays, and skips numbers inside strings', () => {
    expect(firstInexactNumber('{"amount": 100.5, "note": "199.999999999999999"}')).toBeNull();
    expect(firstInexactNumber('{"a": {"b": [1, 2, 100.0000000000000001]}}')).toEqual({
      path: 'a.b[2]',
      literal: '100.0000000000000001',
    });
    expect(firstInexactNumber('{"params":{"name":"x","arguments":{"amount":199.999999999999999}}}')).toEqual({
      path: 'params.arguments.amount',
      literal: '199.999999999999999',
    });
    expect(firstInexactNumber('{"k\\"ey": 1, "amount": 12345678901234567890}')).toEqual({
      path: 'amount',
      literal: '12345678901234567890',
    });
    expect(firstInexactNumber('199.999999999999999')).toEqual({ path: 'body', literal: '199.999999999999999' });
  });

  /** A decimal's value as an integer of digits and a power of ten, reduced: equal values, equal pairs (the oracle). */
  const valueOf = (text: string): string => {
    const [mantissa, power = '0'] = text.toLowerCase().split('e');
    const [whole, fraction = ''] = mantissa.replace('-', '').split('.');
    let digits = BigInt(`${whole}${fraction}`);
    let exponent = Number(power) - fraction.length;
    if (digits === 0n) return '0';
    while (digits % 10n === 0n) {
      digits /= 10n;
      exponent += 1;
    }
    return `${mantissa.startsWith('-') ? '-' : ''}${digits}e${exponent}`;
  };

  it('agrees, for short and long literals alike, with whether the double prints back to the same value', () => {
    const digits = (min: number, max: number) =>
      fc
        .array(fc.constantFrom(...Array.from({ length: 10 }, (_, digit) => String(digit))), {
          minLength: min,
          maxLength: max,
        })
        .map((list) => list.join(''));
    const literal = fc
      .tuple(fc.boolean(), digits(1, 19), fc.option(digits(1, 19)), fc.option(fc.integer({ min: -330, max: 330 })))
      .map(
        ([negative, whole, fraction, power]) =>
          `${negative ? '-' : ''}${whole.replace(/^0+(?=\d)/, '')}${fraction === null ? '' : `.${fraction}`}${power === null ? '' : `e${power}`}`,
      );
    fc.assert(
      fc.property(literal, (text) => {
        const value = Number(text);
        const exact = Number.isFinite(value) && valueOf(String(value)) === valueOf(text);
        expect(isExactAsDouble(text)).toBe(exact);
      }),
      { seed: 7, numRuns: 5000 },
    );
  });
});
