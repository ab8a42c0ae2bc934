import { FieldCheck, fieldChecksOf } from './field-checks';

// A DTO's checks compiled into one function (decision 0101): the instance when every field is known and passes,
// null when anything is wrong (class-validator then names the problem).
export type CompiledValidator<T> = (value: object) => T | null;

interface CompiledField {
  name: string;
  optional: boolean;
  nullAllowed: boolean;
  checks: FieldCheck[];
}

const compiled = new WeakMap<abstract new () => object, CompiledValidator<object> | null>();

// A DTO class's compiled validator, built at first use; null when not every field is declared through the checked
// field decorators (request-fields.ts), so class-validator alone validates it.
export function compiledValidatorOf<T extends object>(dto: new () => T): CompiledValidator<T> | null {
  if (!compiled.has(dto)) compiled.set(dto, compile(dto));
  return compiled.get(dto) as CompiledValidator<T> | null;
}

function compile<T extends object>(dto: new () => T): CompiledValidator<T> | null {
  const checks = fieldChecksOf(dto);
  if (!checks) return null;
  // A field several classes of the hierarchy declare must pass all their checks, and is
  // optional only when all say so: never more lenient than class-validator.
  const fields: CompiledField[] = [...checks].map(([name, declared]) => ({
    name,
    optional: declared.every((check) => check.optional),
    nullAllowed: declared.every((check) => check.nullAllowed),
    checks: declared,
  }));
  const known = new Set(fields.map((field) => field.name));
  // A constructor that sets a field class-validator does not know would have every request refused.
  if (Object.keys(new dto()).some((name) => !known.has(name))) return null;

  return (value) => {
    if (!isPlainObject(value)) return null;
    const names = Object.keys(value);
    if (names.some((name) => !known.has(name))) return null;
    // As class-transformer maps a plain object: a new instance given the value's own fields,
    // nested objects copied. It is the instance that is checked, constructor defaults included.
    const instance = new dto() as Record<string, unknown>;
    const source = value as Record<string, unknown>;
    for (const name of names) {
      const fieldValue = source[name];
      if (fieldValue === null || typeof fieldValue !== 'object') instance[name] = fieldValue;
      // Arrays, dates and other objects no check here accepts, or that class-transformer maps its own way.
      else if (isPlainObject(fieldValue)) instance[name] = { ...fieldValue };
      else return null;
    }
    for (const field of fields) {
      const fieldValue = instance[field.name];
      const absent = fieldValue === undefined || (fieldValue === null && field.nullAllowed);
      const passes = absent ? field.optional : field.checks.every((check) => check.accepts(fieldValue));
      if (!passes) return null;
    }
    return instance as T;
  };
}

/** An object as JSON gives it: no class, no array. */
function isPlainObject(value: object): boolean {
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
