type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** The checked-in OpenAPI snapshot and what is generated from it, relative to the repository root. */
export const OPENAPI_SNAPSHOT_FILE = 'clients/typescript/openapi.json';

/**
 * JSON with every object's keys sorted (arrays keep their order), two-space indented, ending in
 * a newline: a stable text for diffs.
 */
export function canonicalJson(value: unknown): string {
  return `${JSON.stringify(sortKeys(value as Json), null, 2)}\n`;
}

function sortKeys(value: Json): Json {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sortKeys(value[key])]),
  );
}
