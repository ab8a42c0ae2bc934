/** JSON as it is written in schemas: what the OpenAPI document and the agent tools' input schemas are made of. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = Record<string, Json>;

export function asObject(value: Json | undefined): JsonObject | null {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? value : null;
}

export function asArray(value: Json | undefined): Json[] {
  return Array.isArray(value) ? value : [];
}

/** A typed deep copy of `value` as JSON.stringify then JSON.parse would give it (dates as ISO strings). */
export function jsonOf(value: unknown): Json {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (value instanceof Date) return value.toJSON();
  if (Array.isArray(value)) return value.map((item: unknown) => (isDropped(item) ? null : jsonOf(item)));
  if (typeof value !== 'object') return null;
  return Object.fromEntries(
    Object.entries(value).flatMap(([key, child]: [string, unknown]) =>
      isDropped(child) ? [] : [[key, jsonOf(child)]],
    ),
  );
}

/** What JSON leaves out of an object (and writes as null in an array). */
const isDropped = (value: unknown): boolean =>
  value === undefined || typeof value === 'function' || typeof value === 'symbol';

/** A value as text: a string as it is, a number or boolean written out, JSON for the rest, `fallback` when absent. */
export function textOf(value: Json | undefined, fallback = ''): string {
  if (value === undefined || value === null) return fallback;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** An OpenAPI 3.0 schema (as @nestjs/swagger writes it) in the JSON Schema 2020-12 form of OpenAPI 3.1. */
export function schema31(value: Json): Json {
  const schema = asObject(value);
  if (!schema) return value;
  const result: JsonObject = { ...schema };
  for (const key of ['properties', 'patternProperties', '$defs']) {
    const children = asObject(result[key]);
    if (children)
      result[key] = Object.fromEntries(Object.entries(children).map(([name, child]) => [name, schema31(child)]));
  }
  for (const key of ['items', 'additionalProperties', 'not', 'contains']) {
    if (asObject(result[key])) result[key] = schema31(result[key]);
  }
  for (const key of ['allOf', 'anyOf', 'oneOf', 'prefixItems']) {
    if (Array.isArray(result[key])) result[key] = result[key].map(schema31);
  }
  // 3.0's boolean exclusiveMinimum/exclusiveMaximum are numbers in 2020-12.
  for (const [exclusive, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    if (typeof result[exclusive] !== 'boolean') continue;
    if (result[exclusive] && typeof result[bound] === 'number') {
      result[exclusive] = result[bound];
      delete result[bound];
    } else {
      delete result[exclusive];
    }
  }
  if ('example' in result) {
    if (!('examples' in result)) result.examples = [result.example];
    delete result.example;
  }
  const nullable = result.nullable === true;
  delete result.nullable;
  if (!nullable) return result;
  const composed = ['$ref', 'allOf', 'anyOf', 'oneOf'].some((key) => key in result);
  if (typeof result.type === 'string' && !composed) {
    result.type = [result.type, 'null'];
    if (Array.isArray(result.enum) && !result.enum.includes(null)) result.enum = [...result.enum, null];
    return result;
  }
  // A nullable reference or composition: either the schema or null (Nest adds type "object" beside a nullable reference).
  const { description, type: _type, ...rest } = result;
  const inner =
    Object.keys(rest).length === 1 && Array.isArray(rest.allOf) && rest.allOf.length === 1 ? rest.allOf[0] : rest;
  return { ...(description !== undefined ? { description } : {}), anyOf: [inner, { type: 'null' }] };
}
