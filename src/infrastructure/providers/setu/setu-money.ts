/** Setu's amounts are integer paise; ours are decimal texts in rupees. Exact both ways, never through a float. */

export function paiseOf(rupees: string): bigint | null {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(rupees);
  if (!match) return null;
  const fraction = match[2] ?? '';
  if (/[1-9]/.test(fraction.slice(2))) return null;
  return BigInt(match[1]) * 100n + BigInt(fraction.slice(0, 2).padEnd(2, '0'));
}

export function rupeesOf(paise: unknown): string | null {
  if (typeof paise !== 'number' || !Number.isSafeInteger(paise) || paise < 0) return null;
  const text = String(paise).padStart(3, '0');
  return `${text.slice(0, -2)}.${text.slice(-2)}`;
}
