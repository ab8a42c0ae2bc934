import { MetadataStorage, getMetadataStorage } from 'class-validator';

type ValidationMetadata = ReturnType<MetadataStorage['getTargetValidationMetadatas']>[number];

/** A field's own check, recorded by its decorator from the limits it gives class-validator (decision 0101). */
export interface FieldCheck {
  /** Absent (undefined, and null when `nullAllowed`, as class-validator's IsOptional) is allowed. */
  optional: boolean;
  /** Whether null counts as absent for an optional field (false: null must pass `accepts`, like any value). */
  nullAllowed: boolean;
  /** Whether a present value passes every limit of the field. */
  accepts(value: unknown): boolean;
}

/** The declaration that created each class-validator metadata entry of a checked field. */
const DECLARED_BY = new WeakMap<ValidationMetadata, FieldCheck>();

/** Every class-validator metadata entry of a class, as validateSync selects them (inherited ones included). */
const validationMetadataOf = (dto: abstract new () => object): ValidationMetadata[] =>
  getMetadataStorage().getTargetValidationMetadatas(dto, '', false, false);

// Records the check against the class-validator metadata entries the decorator creates, so the compiled validator
// knows which checks apply to a class (a subclass redeclaring a field replaces its parent's) and that none else do.
export function withFieldCheck(check: FieldCheck, decorator: PropertyDecorator): PropertyDecorator {
  return (target, property) => {
    const dto = target.constructor as new () => object;
    const before = new Set(validationMetadataOf(dto));
    decorator(target, property);
    for (const metadata of validationMetadataOf(dto)) {
      if (!before.has(metadata) && metadata.propertyName === property) DECLARED_BY.set(metadata, check);
    }
  };
}

// The checks a class's class-validator metadata stands for, by field; null when some of it was not declared
// through a checked field (a class-validator decorator used directly).
export function fieldChecksOf(dto: abstract new () => object): Map<string, FieldCheck[]> | null {
  const checks = new Map<string, FieldCheck[]>();
  for (const metadata of validationMetadataOf(dto)) {
    const check = DECLARED_BY.get(metadata);
    if (!check) return null;
    const field = checks.get(metadata.propertyName) ?? [];
    if (!field.includes(check)) field.push(check);
    checks.set(metadata.propertyName, field);
  }
  return checks;
}
