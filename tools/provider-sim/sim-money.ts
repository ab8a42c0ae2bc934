/** Exact decimal amounts for the simulator: integers of 10^-6 units. */
const DIGITS = 6;
const UNIT = 10n ** BigInt(DIGITS);

export function micros(text: string): bigint {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match) throw new Error(`not an amount: ${text}`);
  return BigInt(match[1]) * UNIT + BigInt((match[2] ?? '').slice(0, DIGITS).padEnd(DIGITS, '0'));
}

/** A JSON number literal for an amount (at most `fraction` digits, rounded half up). */
export function literal(value: bigint, fraction = 2): string {
  const step = 10n ** BigInt(DIGITS - fraction);
  const rounded = (value + step / 2n) / step;
  const text = rounded.toString().padStart(fraction + 1, '0');
  return `${text.slice(0, -fraction)}.${text.slice(-fraction)}`.replace(/\.?0+$/, '') || '0';
}

export const divide = (amount: bigint, rate: bigint): bigint => (amount * UNIT) / rate;

/** A JSON number as sent (the shortest text of the double, as JavaScript prints it). */
export const amountOf = (value: unknown): bigint | null =>
  typeof value === 'number' && Number.isFinite(value) && value > 0 ? micros(String(value)) : null;
