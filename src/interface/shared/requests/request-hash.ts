import { hash } from 'node:crypto';

/**
 * Two requests are "the same" when they call the same operation with the same JSON
 * content, whatever the key order or whitespace of the body.
 */
export function requestHash(operation: string, body: unknown): string {
  return hash('sha256', `${operation}\n${canonicalJson(body)}`, 'hex');
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
