import { createHash } from 'node:crypto';
import { QueryConfig } from 'pg';

/** Distinct statement texts given a name, process-wide. Texts built per call (VALUES lists of any length) would otherwise grow without end. */
const MAX_NAMED = 100;
const names = new Map<string, string>();

/**
 * Named (parsed once per connection) when among the first MAX_NAMED distinct texts; parameterless scripts never. Every
 * statement is still planned per call (`plan_cache_mode=force_custom_plan`): a cached generic plan made on a small
 * table would keep scanning it whole (docs/performance.md).
 */
export function preparedQuery(text: string, params: readonly unknown[]): QueryConfig {
  if (params.length === 0) return { text, values: [] };
  let name = names.get(text);
  if (name === undefined && names.size < MAX_NAMED) {
    name = `s_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
    names.set(text, name);
  }
  return name === undefined ? { text, values: params as unknown[] } : { name, text, values: params as unknown[] };
}
