import { ServiceError } from '../../../application/shared/service-error';

/** Refuses a query parameter the route does not define, as bodies refuse unknown fields (a typo is not silently ignored). */
export function refuseUnknownQuery(query: Record<string, unknown>, known: readonly string[]): void {
  const unknown = Object.keys(query).find((name) => !known.includes(name));
  if (unknown !== undefined)
    throw new ServiceError('validation_failed', `${unknown}: is not a filter of this endpoint`);
}

/** A page size written as plain digits (no `1e1`, `0x10` or `+5`), from 1 to max; the fallback when absent. */
export function queryLimit(raw: unknown, fallback: number, max: number, name = 'limit'): number {
  if (raw === undefined) return fallback;
  const count = typeof raw === 'string' && /^[0-9]{1,4}$/.test(raw) ? Number(raw) : 0;
  if (count < 1 || count > max) throw new ServiceError('validation_failed', `${name}: an integer from 1 to ${max}`);
  return count;
}
