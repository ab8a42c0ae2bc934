/**
 * Checks of a resource read back from bytes kept as they were sent (a replayed answer, a webhook
 * body in the events feed): each field's check is a type guard of the field's own type, and the
 * checks of a resource name every one of its fields, so the compiler holds them to the resource.
 */

export type FieldCheck<Value> = (value: unknown) => value is Value;

/** One check per field of the resource, each for that field's type. */
export type FieldChecks<Resource> = { [Field in keyof Resource]-?: FieldCheck<Resource[Field]> };

export const isText = (value: unknown): value is string => typeof value === 'string';
export const isTextOrNull = (value: unknown): value is string | null => value === null || typeof value === 'string';
export const isInteger = (value: unknown): value is number => Number.isInteger(value);
export const isExactly =
  <Value extends string | boolean>(expected: Value) =>
  (value: unknown): value is Value =>
    value === expected;

/** Whether `value` is an object whose fields each pass their check (fields without a check are not looked at). */
export function holdsFields<Resource>(value: unknown, checks: FieldChecks<Resource>): value is Resource {
  if (typeof value !== 'object' || value === null) return false;
  const fields = new Map<string, unknown>(Object.entries(value));
  const named: [string, (value: unknown) => boolean][] = Object.entries(checks);
  return named.every(([field, holds]) => fields.has(field) && holds(fields.get(field)));
}
