export class CatalogDataError extends Error {
  override readonly name = 'CatalogDataError';
}

export const fail = (path: string, problem: string): never => {
  throw new CatalogDataError(`catalog data ${path}: ${problem}`);
};

/** An object with exactly the given fields, so a misspelt field is an error rather than a silent default. */
export const objectAt = (value: unknown, path: string, fields: readonly string[]): Record<string, unknown> => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return fail(path, 'must be an object');
  const record = value as Record<string, unknown>;
  const unknown = Object.keys(record).find((key) => !fields.includes(key));
  if (unknown !== undefined) fail(path, `has an unknown field "${unknown}"`);
  const missing = fields.find((key) => !(key in record));
  if (missing !== undefined) fail(path, `is missing the field "${missing}"`);
  return record;
};

export const arrayAt = (value: unknown, path: string): unknown[] =>
  Array.isArray(value) ? value : fail(path, 'must be an array');

export const stringAt = (value: unknown, path: string, shape?: RegExp): string => {
  if (typeof value !== 'string' || value.trim() === '') return fail(path, 'must be a non-empty string');
  if (shape && !shape.test(value)) return fail(path, `"${value}" does not match ${shape}`);
  return value;
};

export const positiveIntegerAt = (value: unknown, path: string): number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value > 0
    ? value
    : fail(path, 'must be a positive integer');

export const booleanAt = (value: unknown, path: string): boolean =>
  typeof value === 'boolean' ? value : fail(path, 'must be true or false');

/** A regular expression source, anchored at both ends so it constrains the whole value. */
export const patternAt = (value: unknown, path: string): string | null => {
  if (value === null) return null;
  const source = stringAt(value, path);
  if (!source.startsWith('^') || !source.endsWith('$')) fail(path, `"${source}" must start with ^ and end with $`);
  try {
    new RegExp(source);
  } catch {
    fail(path, `"${source}" is not a valid regular expression`);
  }
  return source;
};
