import fc from 'fast-check';
import { DECORATORS } from '@nestjs/swagger';
import { getMetadataStorage } from 'class-validator';

/**
 * Request bodies for a DTO class, good and hostile: its own fields (read from the class's
 * metadata, the limits at their boundaries as the published schema states them), values of
 * every wrong kind, missing fields and extra ones. What the compiled request checks are
 * compared with class-validator on.
 */

type Dto = abstract new () => object;

interface FieldSchema {
  type?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  enum?: string[];
  maxProperties?: number;
  additionalProperties?: { maxLength?: number };
}

/** Values of every JSON kind (and a few JSON never gives) that a field may be sent. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(
    null,
    undefined,
    Number.NaN,
    Number.POSITIVE_INFINITY,
    Number.NEGATIVE_INFINITY,
    -0,
    0,
    1,
    -1,
    0.5,
    100.25,
    2 ** 31 - 1,
    2 ** 31,
    2 ** 53,
    -(2 ** 53),
    1e21,
    Number.MAX_VALUE,
    Number.MIN_VALUE,
    true,
    false,
    '',
    ' ',
    '0',
    '1',
    '100',
    'true',
    'null',
    [],
    {},
    [1],
    ['a'],
    { a: 'x' },
    { a: 1 },
    { a: { b: 'c' } },
    { a: null },
    new Date(0),
  ),
  fc.double(),
  fc.integer(),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 300 }),
  fc.dictionary(fc.string({ maxLength: 6 }), fc.string({ maxLength: 8 }), { maxKeys: 12 }),
  fc.array(fc.anything({ maxDepth: 1 }), { maxLength: 3 }),
  fc.anything({ maxDepth: 2 }),
);

/** Pieces of text whose length counts differently: validator.js counts a surrogate pair and an emoji presentation as one. */
const TEXT_UNITS = [
  'a',
  '7',
  ' ',
  'é',
  'e\u0301',
  '\u{1F600}',
  '\u2764\uFE0F',
  '\uFE0F',
  '\u200D',
  '中',
  '\u00A0',
  '-',
];

/** Texts of about `length` units (one below to one above), of mixed units. */
const textAround = (length: number): fc.Arbitrary<string> =>
  fc
    .tuple(fc.integer({ min: Math.max(0, length - 1), max: length + 1 }), fc.constantFrom(...TEXT_UNITS), fc.boolean())
    .chain(([units, unit, mixed]) =>
      mixed
        ? fc
            .array(fc.constantFrom(...TEXT_UNITS), { minLength: units, maxLength: units })
            .map((parts) => parts.join(''))
        : fc.constant(unit.repeat(units)),
    );

/** Values of one field near and at its declared limits, and of its type throughout. */
function fieldValue(schema: FieldSchema | undefined): fc.Arbitrary<unknown> {
  switch (schema?.type) {
    case 'integer': {
      const low = schema.minimum ?? 0;
      const high = schema.maximum ?? 2 ** 31;
      return fc.oneof(
        fc.constantFrom(low - 1, low, low + 1, high - 1, high, high + 1, low + 0.5, high - 0.5),
        fc.integer({ min: low, max: Math.min(high, Number.MAX_SAFE_INTEGER) }),
      );
    }
    case 'number':
      return fc.oneof(fc.double(), fc.integer({ min: -1000, max: 100_000 }), fc.constantFrom(0.01, 99.99, 100, 1e-7));
    case 'boolean':
      return fc.boolean();
    case 'string': {
      if (schema.enum) {
        const choices = schema.enum;
        return fc.oneof(
          fc.constantFrom(...choices),
          fc.constantFrom(...choices).map((choice) => choice.toLowerCase()),
          fc.constantFrom(...choices).map((choice) => `${choice} `),
        );
      }
      const lengths = [schema.minLength ?? 0, schema.maxLength ?? 100];
      const texts = fc.oneof(...lengths.map(textAround), fc.string({ unit: 'grapheme', maxLength: lengths[1] + 2 }));
      if (!schema.pattern) return texts;
      return fc.oneof(
        texts,
        fc.stringMatching(new RegExp(schema.pattern)),
        textAround(lengths[1]).map((text) => `${text}~`),
      );
    }
    case 'object': {
      const entries = schema.maxProperties ?? 10;
      const length = schema.additionalProperties?.maxLength ?? 100;
      return fc.oneof(
        fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), textAround(length), { maxKeys: entries + 1 }),
        fc.dictionary(fc.string({ maxLength: 8 }), fc.string({ maxLength: 10 }), {
          minKeys: entries,
          maxKeys: entries + 1,
        }),
        fc.dictionary(fc.string({ maxLength: 8 }), hostileValue, { maxKeys: 3 }),
      );
    }
    default:
      return hostileValue;
  }
}

/** The fields of a DTO class, as class-validator and the OpenAPI metadata know them. */
function fieldsOf(dto: Dto): Map<string, FieldSchema | undefined> {
  const names = getMetadataStorage()
    .getTargetValidationMetadatas(dto, '', false, false)
    .map((metadata) => metadata.propertyName);
  const fields = new Map<string, FieldSchema | undefined>();
  for (const name of names) {
    fields.set(
      name,
      Reflect.getMetadata(DECORATORS.API_MODEL_PROPERTIES, dto.prototype as object, name) as FieldSchema,
    );
  }
  return fields;
}

/** Keys no request has: built-in property names, near-misses of real ones, any text. */
const extraKey = (names: string[]): fc.Arbitrary<string> =>
  fc.oneof(
    fc.constantFrom('__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', 'then', '', 'id', ' '),
    ...(names.length
      ? [
          fc.constantFrom(...names).map((name) => name.toUpperCase()),
          fc.constantFrom(...names).map((name) => `${name} `),
        ]
      : []),
    fc.string({ maxLength: 12 }),
  );

/**
 * Bodies for a DTO class: each of its fields present or not, mostly with a value of its own
 * kind near its limits, sometimes with any value; now and then an extra field. Keys such as
 * `__proto__` are the body's own fields, as JSON.parse makes them.
 */
export function requestValues(dto: Dto): fc.Arbitrary<Record<string, unknown>> {
  const fields = fieldsOf(dto);
  const model = Object.fromEntries(
    [...fields].map(([name, schema]) => [
      name,
      fc.oneof({ weight: 6, arbitrary: fieldValue(schema) }, { weight: 1, arbitrary: hostileValue }),
    ]),
  );
  const known = fc.record(model, { requiredKeys: [] });
  const extra = fc.oneof(
    { weight: 6, arbitrary: fc.constant([]) },
    { weight: 1, arbitrary: fc.array(fc.tuple(extraKey([...fields.keys()]), hostileValue), { maxLength: 2 }) },
  );
  return fc
    .tuple(known, extra)
    .map(([values, extras]) => Object.fromEntries<unknown>([...Object.entries(values), ...extras]));
}
