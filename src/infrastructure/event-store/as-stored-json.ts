/**
 * A value as it reads back from a JSON column: the value itself when JSON would give back the same (plain objects and
 * arrays of strings, finite numbers, booleans and null), otherwise its JSON round trip (a Date becomes its text, an
 * `undefined` property goes, NaN becomes null). The common case allocates nothing; the value is then shared, which
 * is safe because events are not changed once appended.
 */
export function asStoredJson<T>(value: T): T {
  return survivesJson(value) ? value : (JSON.parse(JSON.stringify(value)) as T);
}

function survivesJson(value: unknown): boolean {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(value) && !Object.is(value, -0);
    case 'object': {
      if (value === null) return true;
      if (Array.isArray(value)) {
        // for-of visits a hole as undefined, which JSON would write as null.
        for (const item of value as unknown[]) if (!survivesJson(item)) return false;
        return true;
      }
      const prototype: unknown = Object.getPrototypeOf(value);
      if (prototype !== Object.prototype && prototype !== null) return false;
      for (const key in value) if (!survivesJson((value as Record<string, unknown>)[key])) return false;
      return true;
    }
    default:
      return false;
  }
}
