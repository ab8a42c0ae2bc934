/**
 * An HTTP `Retry-After` (RFC 9110: a number of seconds, or an HTTP date) as milliseconds from `now`;
 * null when absent or unreadable. A date already past is 0.
 */
export function retryAfterMsOf(value: string | null, now: number): number | null {
  if (value === null) return null;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // An HTTP date names its month: a bare number that is not whole seconds ("-5") is no date.
  const at = /[A-Za-z]{3}/.test(text) ? Date.parse(text) : Number.NaN;
  return Number.isNaN(at) ? null : Math.max(at - now, 0);
}
