import { hash } from 'node:crypto';

/**
 * Two requests are "the same" when they call the same operation with the same JSON
 * content, whatever the key order or whitespace of the body.
 */
export function requestHash(operation: string, body: unknown): string {
  return hash('sha256', `${operation}\n${canonicalJson(body)}`, 'hex');
}

/** Sorted keys, no undefined fields, no whitespace; built as one string (this runs on every value-moving request). */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) {
    let text = '[';
    for (let index = 0; index < value.length; index++)
      text += `${index > 0 ? ',' : ''}${(canonicalJson(value[index]) as string | undefined) ?? ''}`;
    return `${text}]`;
  }
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    let text = '{';
    for (const key of Object.keys(record).sort()) {
      const item = record[key];
      if (item === undefined) continue;
      text += `${text.length > 1 ? ',' : ''}${JSON.stringify(key)}:${canonicalJson(item)}`;
    }
    return `${text}}`;
  }
  return JSON.stringify(value);
}
