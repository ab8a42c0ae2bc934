/**
 * Amounts in Reloadly's answers are JSON numbers. They are read as text the way JavaScript prints
 * a double (the shortest text that reads back as the same double, which is the literal sent for
 * any amount of up to 15 significant digits) and compared as scaled integers, never as floats.
 */
const SCALE_DIGITS = 8;
const SCALE = 10n ** BigInt(SCALE_DIGITS);

export function decimalText(value: unknown): string | null {
  if (typeof value === 'number' && Number.isFinite(value)) {
    const text = String(value);
    return /e/i.test(text) ? value.toFixed(SCALE_DIGITS).replace(/\.?0+$/, '') : text;
  }
  if (typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value)) return value;
  return null;
}

/** A decimal text as an integer count of 10^-8 units (digits beyond are dropped). */
export function scaled(text: string): bigint {
  const negative = text.startsWith('-');
  const [whole, fraction = ''] = text.replace(/^-/, '').split('.');
  const units = BigInt(whole) * SCALE + BigInt(fraction.slice(0, SCALE_DIGITS).padEnd(SCALE_DIGITS, '0'));
  return negative ? -units : units;
}

export function unscaled(units: bigint, fractionDigits = 2): string {
  const negative = units < 0n;
  const absolute = negative ? -units : units;
  const step = 10n ** BigInt(SCALE_DIGITS - fractionDigits);
  const rounded = (absolute + step - 1n) / step; // rounded up: an estimate of what an order costs errs on the safe side
  const text = rounded.toString().padStart(fractionDigits + 1, '0');
  const result = fractionDigits ? `${text.slice(0, -fractionDigits)}.${text.slice(-fractionDigits)}` : text;
  return negative ? `-${result}` : result;
}

/** `amount / rate`, both decimal texts, in 10^-8 units. */
export function dividedBy(amount: string, rate: string): bigint {
  const divisor = scaled(rate);
  if (divisor <= 0n) throw new Error(`not a usable rate: ${rate}`);
  return (scaled(amount) * SCALE + divisor - 1n) / divisor;
}
