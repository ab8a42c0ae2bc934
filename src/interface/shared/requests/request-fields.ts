import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsNumber,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateIf,
  isBoolean,
  isIn,
  isInt,
  isNumber,
  isString,
  length,
  matches,
  max,
  min,
} from 'class-validator';
import { withFieldCheck } from './field-checks';
import { IsStringRecord, isStringRecord } from './validators';

// Request fields declared once (decision 0100): each decorator gives a field's limits to class-validator, to its
// own compiled check (built from class-validator's predicates, so both judge alike) and to the OpenAPI metadata.

export interface FieldDoc {
  description: string;
  example?: unknown;
  /** Absent is allowed; a present value is checked all the same. */
  optional?: boolean;
}

/** The largest id of an operator or biller (a PostgreSQL integer). */
export const MAX_ID = 2_147_483_647;

/** Applies decorators as if written in this order, so the first problem named is the most basic (type before length). */
function stacked(...decorators: PropertyDecorator[]): PropertyDecorator {
  return applyDecorators(...decorators.reverse());
}

/** The field's check, recorded with its decorators: `accepts` judges a present value. */
function checked(
  doc: FieldDoc,
  accepts: (value: unknown) => boolean,
  decorator: PropertyDecorator,
  absence: Absence = 'undefined_or_null',
): PropertyDecorator {
  return withFieldCheck(
    { optional: doc.optional === true, nullAllowed: absence === 'undefined_or_null', accepts },
    decorator,
  );
}

/** What an optional field may be when it is absent: IsOptional skips undefined and null alike. */
type Absence = 'undefined_or_null' | 'undefined_only';

function documented(
  schema: Record<string, unknown>,
  doc: FieldDoc,
  absence: Absence = 'undefined_or_null',
): PropertyDecorator[] {
  const example = doc.example !== undefined ? { example: doc.example } : {};
  const property = { ...schema, description: doc.description, ...example };
  if (!doc.optional) return [ApiProperty(property)];
  const skipWhenAbsent =
    absence === 'undefined_or_null' ? IsOptional() : ValidateIf((_: object, value: unknown) => value !== undefined);
  return [ApiPropertyOptional(property), skipWhenAbsent];
}

/** An operator or biller id: a positive integer. */
export function IdField(doc: FieldDoc): PropertyDecorator {
  return checked(
    doc,
    (value) => isInt(value) && min(value, 1) && max(value, MAX_ID),
    stacked(
      ...documented({ type: 'integer', minimum: 1, maximum: MAX_ID }, doc),
      IsInt({ message: 'must be an integer' }),
      Min(1, { message: 'must be a positive integer' }),
      Max(MAX_ID, { message: 'is not a known id' }),
    ),
  );
}

export interface TextLimits {
  minLength?: number;
  maxLength: number;
  /** Checked after the lengths; its message follows the field name. */
  pattern?: { regex: RegExp; message: string };
}

export function TextField(limits: TextLimits, doc: FieldDoc): PropertyDecorator {
  const { minLength, maxLength, pattern } = limits;
  const schema = {
    type: 'string',
    ...(minLength !== undefined ? { minLength } : {}),
    maxLength,
    ...(pattern ? { pattern: pattern.regex.source } : {}),
  };
  return checked(
    doc,
    (value) =>
      isString(value) && length(value, minLength ?? 0, maxLength) && (!pattern || matches(value, pattern.regex)),
    stacked(
      ...documented(schema, doc),
      IsString({ message: 'must be a string' }),
      ...(minLength !== undefined ? [MinLength(minLength, { message: tooShort(minLength) })] : []),
      MaxLength(maxLength, { message: `must be at most ${maxLength} characters` }),
      ...(pattern ? [Matches(pattern.regex, { message: pattern.message })] : []),
    ),
  );
}

const tooShort = (minLength: number): string =>
  minLength === 1 ? 'must not be empty' : `must be at least ${minLength} characters`;

/** A JSON number above zero; decimals and range are the use case's rules (currency, product). */
export function AmountField(doc: FieldDoc): PropertyDecorator {
  const finite = { allowNaN: false, allowInfinity: false };
  return checked(
    doc,
    (value) => isNumber(value, finite),
    stacked(
      ...documented({ type: 'number', minimum: 0, exclusiveMinimum: true }, doc),
      IsNumber(finite, { message: 'must be a JSON number' }),
    ),
  );
}

// A JSON true or false. Optional means absent: `null` is refused, since a flag read as "not true" would act on a
// value the caller did not send (`"validate_only": null` must not place a real order).
export function FlagField(doc: FieldDoc): PropertyDecorator {
  return checked(
    doc,
    isBoolean,
    stacked(...documented({ type: 'boolean' }, doc, 'undefined_only'), IsBoolean({ message: 'must be true or false' })),
    'undefined_only',
  );
}

/** One of a fixed list of strings. */
export function ChoiceField(values: readonly string[], doc: FieldDoc & { default?: string }): PropertyDecorator {
  const fallback = doc.default !== undefined ? { default: doc.default } : {};
  return checked(
    doc,
    (value) => isIn(value, values),
    stacked(
      ...documented({ type: 'string', enum: [...values], ...fallback }, doc),
      IsIn([...values], { message: `must be one of ${values.join(', ')}` }),
    ),
  );
}

/** Names to string values (the `params` of bill requests). */
export function StringRecordField(limits: { maxEntries: number; maxLength: number }, doc: FieldDoc): PropertyDecorator {
  return checked(
    doc,
    (value) => isStringRecord(value, limits.maxEntries, limits.maxLength),
    stacked(
      ...documented(
        {
          type: 'object',
          additionalProperties: { type: 'string', maxLength: limits.maxLength },
          maxProperties: limits.maxEntries,
        },
        doc,
      ),
      IsStringRecord(limits.maxEntries, limits.maxLength),
    ),
  );
}
