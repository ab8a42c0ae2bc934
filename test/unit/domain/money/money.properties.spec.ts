import fc from 'fast-check';
import { CURRENCIES, Currency } from '../../../../src/domain/money/currency';
import { Money } from '../../../../src/domain/money/money';
import { firstInexactNumber, isExactAsDouble } from '../../../../src/interface/http/validation/exact-json-numbers';

/** Fixed seed: a failure here replays exactly; fast-check prints the counterexample and its path. */
const RUNS = { seed: 18, numRuns: 500 };

const currency = fc.constantFrom(...(Object.keys(CURRENCIES) as Currency[]));
/** Any amount that can be written and read back: up to 15 integer digits and 2 decimals. */
const minorInRange = fc.bigInt({ min: 0n, max: 10n ** 17n - 1n });
const money = fc.tuple(minorInRange, currency).map(([minor, code]) => Money.ofMinor(minor, code));

describe('Money, for any amount', () => {
  it('parsing its decimal text gives it back', () => {
    fc.assert(
      fc.property(money, (amount) => {
        expect(Money.parse(amount.toDecimal(), amount.currency)?.equals(amount)).toBe(true);
      }),
      RUNS,
    );
  });

  it('its text has exactly the currency digits and reads back through a JSON number when it has at most 15 significant digits', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 15n - 1n }), currency, (minor, code) => {
        const amount = Money.ofMinor(minor, code);
        const text = amount.toDecimal();
        expect(text).toMatch(/^\d+\.\d{2}$/);
        expect(Money.fromJsonNumber(Number(text), code)?.equals(amount)).toBe(true);
      }),
      RUNS,
    );
  });

  it('adding then subtracting the same amount changes nothing, and addition does not depend on order', () => {
    fc.assert(
      fc.property(minorInRange, minorInRange, currency, (a, b, code) => {
        const x = Money.ofMinor(a, code);
        const y = Money.ofMinor(b, code);
        expect(x.plus(y).minus(y).equals(x)).toBe(true);
        expect(x.plus(y).equals(y.plus(x))).toBe(true);
        expect(x.isLessThan(y)).toBe(a < b);
      }),
      RUNS,
    );
  });

  it('a text with more fraction digits than the currency has is refused unless the extra ones are zeros', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 12n }),
        fc.stringMatching(/^\d{3,12}$/),
        currency,
        (whole, digits, code) => {
          const parsed = Money.parse(`${whole}.${digits}`, code);
          const significant = digits.replace(/0+$/, '');
          if (significant.length > 2) expect(parsed).toBeNull();
          else expect(parsed?.minor).toBe(whole * 100n + BigInt(significant.padEnd(2, '0') || '0'));
        },
      ),
      RUNS,
    );
  });
});

describe('JSON number literals, for any decimal text', () => {
  const literal = fc
    .tuple(
      fc.boolean(),
      fc.stringMatching(/^(0|[1-9]\d{0,24})$/),
      fc.option(fc.stringMatching(/^\d{1,24}$/), { nil: undefined }),
      fc.option(fc.integer({ min: -30, max: 30 }), { nil: undefined }),
    )
    .map(
      ([negative, whole, fraction, exponent]) =>
        `${negative ? '-' : ''}${whole}${fraction !== undefined ? `.${fraction}` : ''}${exponent !== undefined ? `e${exponent}` : ''}`,
    );

  it('a literal with at most 15 significant digits is always read exactly', () => {
    fc.assert(
      fc.property(literal, (text) => {
        const significant = text.replace(/^-/, '').split('e')[0].replace('.', '').replace(/^0+/, '').replace(/0+$/, '');
        fc.pre(significant.length <= 15);
        expect(isExactAsDouble(text)).toBe(true);
      }),
      RUNS,
    );
  });

  it('a literal is exact exactly when the double prints back to the same value', () => {
    fc.assert(
      fc.property(literal, (text) => {
        const value = Number(text);
        const exact = isExactAsDouble(text);
        if (exact) expect(Number(String(value)) === value).toBe(true);
        // Inexact means another, shorter text reads as the same double: the client's digits were lost.
        if (!exact && Number.isFinite(value)) expect(String(value)).not.toBe(text);
      }),
      RUNS,
    );
  });

  it('the scan finds an inexact amount wherever it sits in a body, and nothing in a body of exact ones', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 3 }), (value) => {
        // JSON.stringify prints every number as its shortest round-trip text: always exact.
        expect(firstInexactNumber(JSON.stringify({ wrapper: value }))).toBeNull();
        expect(
          firstInexactNumber(
            JSON.stringify({ wrapper: value, amount: 1 }).replace('"amount":1', '"amount":199.999999999999999'),
          ),
        ).toEqual({
          path: 'amount',
          literal: '199.999999999999999',
        });
      }),
      RUNS,
    );
  });
});
