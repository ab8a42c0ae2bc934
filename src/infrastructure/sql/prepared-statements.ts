import { createHash } from 'node:crypto';
import { QueryConfig } from 'pg';

/** Distinct statement texts given a name, process-wide. Texts built per call (VALUES lists of any length) would otherwise grow without end. */
const MAX_NAMED = 100;
const names = new Map<string, string>();

/**
 * The statement as a pg query config, named when it is one of the first MAX_NAMED distinct texts
 * seen, so that each connection parses and analyses it once; others go unnamed, parsed each time.
 * Parameterless scripts (migrations) are never named.
 *
 * Named or not, every statement is planned afresh at each call with the values given: the pools
 * set `plan_cache_mode=force_custom_plan` (postgres-database.ts). A generic plan, which PostgreSQL
 * would otherwise cache after five calls, is costed with the table sizes of its time; one made
 * while a table such as `es_streams` or `jobs` was small scans it whole, and keeps doing so as it
 * grows unless statistics are refreshed (autovacuum may be off). Planning per call costs less
 * than the parsing it saves on the large statements (docs/performance.md).
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
