import { DECORATORS } from '@nestjs/swagger';
import { Json, JsonObject, schema31 } from './json-schema';

/** Keys of @nestjs/swagger's property metadata that are not JSON Schema. */
const NOT_SCHEMA = new Set(['required', 'isArray', 'selfRequired']);

// A flat request DTO's JSON Schema (2020-12), from the same @ApiProperty metadata as the OpenAPI document, so the
// tools publish what REST does (decision 0100). Unknown fields are refused, as the validation pipe refuses them.
export function dtoJsonSchema(dto: abstract new () => object): JsonObject {
  const prototype = dto.prototype as object;
  const keys = (Reflect.getMetadata(DECORATORS.API_MODEL_PROPERTIES_ARRAY, prototype) as string[] | undefined) ?? [];
  const properties: JsonObject = {};
  const required: string[] = [];
  for (const name of new Set(keys.map((key) => key.slice(1)))) {
    const metadata = Reflect.getMetadata(DECORATORS.API_MODEL_PROPERTIES, prototype, name) as Record<string, unknown>;
    if (typeof metadata.type !== 'string' || metadata.isArray === true) {
      throw new Error(`${dto.name}.${name}: only flat fields of a JSON type have a request schema here`);
    }
    const schema: JsonObject = {};
    for (const [key, value] of Object.entries(metadata)) {
      if (!NOT_SCHEMA.has(key) && value !== undefined) schema[key] = value as Json;
    }
    properties[name] = schema31(schema);
    if (metadata.required !== false) required.push(name);
  }
  return { type: 'object', properties, ...(required.length ? { required } : {}), additionalProperties: false };
}
