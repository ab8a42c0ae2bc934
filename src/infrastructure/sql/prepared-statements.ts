import { createHash } from 'node:crypto';
import { QueryConfig } from 'pg';

/** Distinct statement texts given a name, process-wide. Texts built per call (VALUES lists of any length) would otherwise grow without end. */
const MAX_NAMED = 100;
const names = new Map<string, string>();
const plannedEachCall = new Set<string>();

/**
 * Marks a statement to be planned at each call, never named: for a read by a list of keys that runs once per
 * projection batch, where planning costs little and a plan cached while its table was nearly empty would scan the
 * table whole until its connection's plans are discarded (the first seconds of a new database or of a rebuilt read model).
 */
export function plannedAtEachCall(text: string): string {
  plannedEachCall.add(text);
  return text;
}

/**
 * Named when among the first MAX_NAMED distinct texts, so PostgreSQL parses each once per connection and may keep
 * its plan (`plan_cache_mode=auto`): each statement names its rows by key, so its cached plan is an index access;
 * a connection's plans are discarded after a number of uses or seconds, so a plan made while a table was small does not
 * outlive that (plan-freshness.ts).
 */
export function preparedQuery(text: string, params: readonly unknown[]): QueryConfig {
  if (params.length === 0 || plannedEachCall.has(text)) return { text, values: params as unknown[] };
  let name = names.get(text);
  if (name === undefined && names.size < MAX_NAMED) {
    name = `s_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
    names.set(text, name);
  }
  return name === undefined ? { text, values: params as unknown[] } : { name, text, values: params as unknown[] };
}
