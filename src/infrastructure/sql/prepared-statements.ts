import { createHash } from 'node:crypto';
import { QueryConfig } from 'pg';
import { QueryOptions } from './sql-database';

/** Distinct statement texts given a name, process-wide. Texts built per call (VALUES lists of any length) would otherwise grow without end. */
const MAX_NAMED = 100;
const names = new Map<string, string>();

/**
 * The statement as a pg query config, named (so each connection parses and plans it once, as
 * pgbench -M prepared does) when it is one of the first MAX_NAMED distinct texts seen; others
 * go unnamed, parsed and planned each time, as do statements asked to be planned per call.
 * Parameterless scripts (migrations) are never named.
 */
export function preparedQuery(text: string, params: readonly unknown[], options: QueryOptions = {}): QueryConfig {
  if (params.length === 0) return { text, values: [] };
  if (options.planPerCall) return { text, values: params as unknown[] };
  let name = names.get(text);
  if (name === undefined && names.size < MAX_NAMED) {
    name = `s_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
    names.set(text, name);
  }
  return name === undefined ? { text, values: params as unknown[] } : { name, text, values: params as unknown[] };
}
