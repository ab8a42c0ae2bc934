import { Currency, minorDigitsOf } from './currency';

/**
 * An exact amount: an integer count of minor units (bigint) in one currency.
 * Never built from or turned into a float.
 */
export class Money {
  private constructor(
    readonly minor: bigint,
    readonly currency: Currency,
  ) {}

  /** The most integer digits an amount may have: what `parse` reads back and what the stores' columns hold. */
  static readonly MAX_INTEGER_DIGITS = 15;

  private static readonly DECIMAL_TEXT = new RegExp(`^(\\d{1,${Money.MAX_INTEGER_DIGITS}})(?:\\.(\\d+))?$`);

  static ofMinor(minor: bigint, currency: Currency): Money {
    return new Money(minor, currency);
  }

  static zero(currency: Currency): Money {
    return new Money(0n, currency);
  }

  /**
   * Parses a plain decimal text ("1000", "12.5", "0.01"). Returns null for anything else:
   * exponents, signs, more fraction digits than the currency has, or more than 15 integer digits.
   */
  static parse(text: string, currency: Currency): Money | null {
    const match = Money.DECIMAL_TEXT.exec(text);
    if (!match) return null;
    const digits = minorDigitsOf(currency);
    const fraction = (match[2] ?? '').replace(/0+$/, '');
    if (fraction.length > digits) return null;
    const minor = BigInt(match[1]) * 10n ** BigInt(digits) + BigInt(fraction.padEnd(digits, '0') || '0');
    return new Money(minor, currency);
  }

  /**
   * Reads a JSON number without float arithmetic: JavaScript prints a double as the shortest
   * decimal text that reads back as the same double, which is the literal the client sent
   * for any amount with at most 15 significant digits.
   */
  static fromJsonNumber(value: number, currency: Currency): Money | null {
    if (!Number.isFinite(value) || value < 0) return null;
    return Money.parse(String(value), currency);
  }

  /** Whether the amount is small enough to be written and read back (at most MAX_INTEGER_DIGITS integer digits). */
  isWithinRange(): boolean {
    return this.minor < 10n ** BigInt(Money.MAX_INTEGER_DIGITS + minorDigitsOf(this.currency));
  }

  plus(other: Money): Money {
    this.assertSameCurrency(other);
    return new Money(this.minor + other.minor, this.currency);
  }

  minus(other: Money): Money {
    this.assertSameCurrency(other);
    return new Money(this.minor - other.minor, this.currency);
  }

  isLessThan(other: Money): boolean {
    this.assertSameCurrency(other);
    return this.minor < other.minor;
  }

  isPositive(): boolean {
    return this.minor > 0n;
  }

  isNegative(): boolean {
    return this.minor < 0n;
  }

  equals(other: Money): boolean {
    return this.currency === other.currency && this.minor === other.minor;
  }

  /** Decimal text with exactly `fractionDigits` digits after the point (default: the currency's). */
  toDecimal(fractionDigits: number = minorDigitsOf(this.currency)): string {
    const digits = minorDigitsOf(this.currency);
    const negative = this.minor < 0n;
    const abs = negative ? -this.minor : this.minor;
    const scale = 10n ** BigInt(digits);
    const whole = abs / scale;
    let fraction = (abs % scale).toString().padStart(digits, '0');
    fraction = fractionDigits >= digits ? fraction.padEnd(fractionDigits, '0') : fraction.slice(0, fractionDigits);
    const text = fractionDigits > 0 ? `${whole}.${fraction}` : `${whole}`;
    return negative ? `-${text}` : text;
  }

  toString(): string {
    return `${this.toDecimal()} ${this.currency}`;
  }

  private assertSameCurrency(other: Money): void {
    if (other.currency !== this.currency) {
      throw new Error(`currency mismatch: ${this.currency} and ${other.currency}`);
    }
  }
}

/** A decimal amount with four decimal places, as the partner interface shows amount_local. */
export const amountLocal = (amount: string, currency: Currency): string => {
  const money = Money.parse(amount, currency);
  if (!money) throw new Error(`unreadable amount ${amount}`);
  return money.toDecimal(4);
};
