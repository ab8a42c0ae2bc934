import { Json, JsonObject, asArray, asObject, textOf } from '../../src/interface/shared/requests/json-schema';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const BOUNDS_THAT_MAY_NOT_RISE = ['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties'];
const BOUNDS_THAT_MAY_NOT_FALL = ['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems', 'maxProperties'];

/**
 * The changes from `before` to `after` (two OpenAPI 3.1 documents) that can break a partner's
 * integration written against `before`, one sentence each; empty when `after` is compatible.
 *
 * Flagged: a removed operation; a parameter removed, added as required, or made required; in
 * what a partner sends (parameters, request bodies), a property removed or newly required, a type
 * or enum narrowed, a bound tightened, a pattern added or changed; in what a partner receives
 * (responses), a property removed or no longer required, a type widened (null included). New
 * operations, optional fields, response fields and enum values in responses (such as a new
 * error code) are additions, not breaks. A renamed field is a removal plus an addition.
 */
export function breakingChanges(before: unknown, after: unknown): string[] {
  const changes: string[] = [];
  const old = new Resolver(before as JsonObject);
  const now = new Resolver(after as JsonObject);
  for (const [path, oldItem] of Object.entries(objectAt(old.document.paths))) {
    const newItem = objectAt(now.document.paths)[path] as JsonObject | undefined;
    for (const method of METHODS.filter((name) => asObject(oldItem)?.[name])) {
      const where = `${method.toUpperCase()} ${path}`;
      const oldOperation = objectAt(asObject(oldItem)?.[method]);
      const newOperation = asObject(newItem?.[method]);
      if (!newOperation) {
        changes.push(`${where}: operation removed`);
        continue;
      }
      compareParameters(where, old, oldOperation, now, newOperation, changes);
      const oldBody = old.deref(oldOperation.requestBody);
      const newBody = now.deref(newOperation.requestBody);
      const oldBodySchema = jsonSchema(old.deref(oldBody));
      const newBodySchema = jsonSchema(now.deref(newBody));
      if (newBody && newBody.required === true && (!oldBody || oldBody.required !== true))
        changes.push(`${where}: request body made required`);
      if (oldBodySchema !== undefined && newBodySchema !== undefined) {
        new SchemaComparison(old, now, 'request', changes).compare(
          `${where} request body`,
          oldBodySchema,
          newBodySchema,
        );
      }
      for (const [status, oldResponse] of Object.entries(objectAt(oldOperation.responses))) {
        const oldSchema = jsonSchema(old.deref(oldResponse));
        const newSchema = jsonSchema(now.deref(objectAt(newOperation.responses)[status]));
        if (oldSchema === undefined || newSchema === undefined) continue;
        new SchemaComparison(old, now, 'response', changes).compare(
          `${where} response ${status}`,
          oldSchema,
          newSchema,
        );
      }
    }
  }
  return changes;
}

function compareParameters(
  where: string,
  old: Resolver,
  oldOperation: JsonObject,
  now: Resolver,
  newOperation: JsonObject,
  changes: string[],
): void {
  const byName = (resolver: Resolver, operation: JsonObject): Map<string, JsonObject> =>
    new Map(
      asArray(operation.parameters)
        .map((parameter) => resolver.deref(parameter))
        .filter((parameter): parameter is JsonObject => parameter !== null)
        .map((parameter) => [`${textOf(parameter.in)} ${textOf(parameter.name).toLowerCase()}`, parameter]),
    );
  const before = byName(old, oldOperation);
  const after = byName(now, newOperation);
  for (const [name, parameter] of before) {
    const next = after.get(name);
    if (!next) {
      changes.push(`${where}: parameter ${name} removed`);
      continue;
    }
    if (next.required === true && parameter.required !== true)
      changes.push(`${where}: parameter ${name} made required`);
    if (parameter.schema !== undefined && next.schema !== undefined) {
      new SchemaComparison(old, now, 'request', changes).compare(
        `${where} parameter ${name}`,
        parameter.schema,
        next.schema,
      );
    }
  }
  for (const [name, parameter] of after) {
    if (!before.has(name) && parameter.required === true) changes.push(`${where}: required parameter ${name} added`);
  }
}

/** Compares one schema of the old document with its counterpart in the new one, following references in both. */
class SchemaComparison {
  private readonly inProgress = new Set<string>();

  constructor(
    private readonly old: Resolver,
    private readonly now: Resolver,
    private readonly direction: 'request' | 'response',
    private readonly changes: string[],
  ) {}

  compare(where: string, oldValue: Json, newValue: Json): void {
    // A schema that contains itself (through references) is compared once along each path.
    const pair = `${refOf(oldValue)}|${refOf(newValue)}`;
    if (pair !== '|' && this.inProgress.has(pair)) return;
    this.inProgress.add(pair);
    try {
      const before = unwrapNullable(this.old.resolveSchema(oldValue));
      const after = unwrapNullable(this.now.resolveSchema(newValue));
      if (!before.schema || !after.schema) return;
      const oldAlternatives = alternativesOf(before.schema);
      const newAlternatives = alternativesOf(after.schema);
      if (oldAlternatives || newAlternatives) {
        // A union (an order or its dry run): each named alternative is compared with the same one on the other side.
        for (const alternative of oldAlternatives ?? [oldValue]) {
          const counterpart = (newAlternatives ?? [newValue]).find(
            (candidate) => refOf(candidate) !== '' && refOf(candidate) === refOf(alternative),
          );
          if (counterpart !== undefined) this.compare(where, alternative, counterpart);
        }
        return;
      }
      this.compareTypes(where, typesOf(before.schema, before.nullable), typesOf(after.schema, after.nullable));
      if (this.direction === 'request') this.compareRequestLimits(where, before.schema, after.schema);
      this.compareProperties(where, before.schema, after.schema);
      if (before.schema.items !== undefined && after.schema.items !== undefined)
        this.compare(`${where}[]`, before.schema.items, after.schema.items);
    } finally {
      if (pair !== '|') this.inProgress.delete(pair);
    }
  }

  private compareTypes(where: string, before: Set<string> | null, after: Set<string> | null): void {
    if (!before || !after) return;
    // A request type must still accept every type it accepted; a response may not return a new type.
    const [must, within] = this.direction === 'request' ? [before, after] : [after, before];
    const missing = [...must].filter((type) => !accepts(within, type));
    if (missing.length) {
      const change = this.direction === 'request' ? 'narrowed' : 'widened';
      this.changes.push(
        `${where}: type ${change} from ${[...before].sort().join('|')} to ${[...after].sort().join('|')}`,
      );
    }
  }

  private compareRequestLimits(where: string, before: JsonObject, after: JsonObject): void {
    if (Array.isArray(before.enum)) {
      const allowed = Array.isArray(after.enum) ? after.enum.map((value) => JSON.stringify(value)) : null;
      const dropped = allowed ? before.enum.filter((value) => !allowed.includes(JSON.stringify(value))) : [];
      if (dropped.length)
        this.changes.push(`${where}: enum values removed: ${dropped.map((value) => JSON.stringify(value)).join(', ')}`);
    } else if (Array.isArray(after.enum)) {
      this.changes.push(`${where}: restricted to an enum`);
    }
    for (const bound of BOUNDS_THAT_MAY_NOT_RISE) {
      if (typeof after[bound] === 'number' && (typeof before[bound] !== 'number' || after[bound] > before[bound])) {
        this.changes.push(`${where}: ${bound} tightened from ${textOf(before[bound], 'none')} to ${after[bound]}`);
      }
    }
    for (const bound of BOUNDS_THAT_MAY_NOT_FALL) {
      if (typeof after[bound] === 'number' && (typeof before[bound] !== 'number' || after[bound] < before[bound])) {
        this.changes.push(`${where}: ${bound} tightened from ${textOf(before[bound], 'none')} to ${after[bound]}`);
      }
    }
    if (typeof after.pattern === 'string' && after.pattern !== before.pattern)
      this.changes.push(`${where}: pattern changed to ${after.pattern}`);
    if (
      after.additionalProperties === false &&
      before.additionalProperties !== false &&
      before.properties !== undefined
    ) {
      this.changes.push(`${where}: additional properties refused`);
    }
  }

  private compareProperties(where: string, before: JsonObject, after: JsonObject): void {
    const oldProperties = objectAt(before.properties);
    const newProperties = objectAt(after.properties);
    const oldRequired = new Set(asArray(before.required).map(String));
    const newRequired = new Set(asArray(after.required).map(String));
    const hasProperties = before.properties !== undefined;
    for (const [name, schema] of Object.entries(oldProperties)) {
      if (!(name in newProperties)) {
        if (hasProperties) this.changes.push(`${where}: property ${name} removed`);
        continue;
      }
      if (this.direction === 'response' && oldRequired.has(name) && !newRequired.has(name))
        this.changes.push(`${where}: property ${name} no longer always present`);
      if (this.direction === 'request' && !oldRequired.has(name) && newRequired.has(name))
        this.changes.push(`${where}: property ${name} made required`);
      this.compare(`${where}.${name}`, schema, newProperties[name]);
    }
    if (this.direction === 'request') {
      for (const name of Object.keys(newProperties)) {
        if (!(name in oldProperties) && newRequired.has(name))
          this.changes.push(`${where}: required property ${name} added`);
      }
    }
  }
}

/** Follows local references (#/components/...) within one document. */
class Resolver {
  constructor(readonly document: JsonObject) {}

  deref(value: Json | undefined): JsonObject | null {
    let current = asObject(value ?? null);
    for (let hops = 0; current && typeof current.$ref === 'string' && hops < 32; hops += 1)
      current = this.pointer(current.$ref);
    return current;
  }

  /** A schema with its own $ref followed; an allOf of one member is that member. */
  resolveSchema(value: Json): JsonObject | null {
    const schema = this.deref(value);
    if (schema && Array.isArray(schema.allOf) && schema.allOf.length === 1) return this.resolveSchema(schema.allOf[0]);
    return schema;
  }

  private pointer(ref: string): JsonObject | null {
    if (!ref.startsWith('#/')) return null;
    let current: Json = this.document;
    for (const part of ref
      .slice(2)
      .split('/')
      .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'))) {
      const next: Json | undefined = asObject(current)?.[part];
      if (next === undefined) return null;
      current = next;
    }
    return asObject(current);
  }
}

/** `anyOf: [schema, {type: 'null'}]` (how a nullable reference is written in 3.1) as the schema plus a null flag. */
function unwrapNullable(schema: JsonObject | null): { schema: JsonObject | null; nullable: boolean } {
  if (!schema) return { schema: null, nullable: false };
  const alternatives = Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : null;
  if (alternatives?.length === 2) {
    const isNull = (alternative: Json): boolean => asObject(alternative)?.type === 'null';
    const other = alternatives.find((alternative) => !isNull(alternative));
    if (other !== undefined && alternatives.some(isNull)) return { schema: asObject(other), nullable: true };
  }
  return { schema, nullable: false };
}

/** The members of a oneOf or anyOf that is not the nullable form (see unwrapNullable); null for any other schema. */
function alternativesOf(schema: JsonObject): Json[] | null {
  const alternatives = Array.isArray(schema.oneOf) ? schema.oneOf : Array.isArray(schema.anyOf) ? schema.anyOf : null;
  return alternatives && alternatives.length > 0 ? alternatives : null;
}

function typesOf(schema: JsonObject, nullable: boolean): Set<string> | null {
  const declared =
    typeof schema.type === 'string' ? [schema.type] : Array.isArray(schema.type) ? schema.type.map(String) : null;
  if (!declared) return null;
  return new Set(nullable ? [...declared, 'null'] : declared);
}

function accepts(types: Set<string>, type: string): boolean {
  return types.has(type) || (type === 'integer' && types.has('number'));
}

function jsonSchema(holder: JsonObject | null): Json | undefined {
  return asObject(asObject(holder?.content ?? null)?.['application/json'] ?? null)?.schema;
}

function refOf(value: Json): string {
  return typeof asObject(value)?.$ref === 'string' ? textOf(asObject(value)?.$ref) : '';
}

function objectAt(value: Json | undefined): JsonObject {
  return asObject(value) ?? {};
}
