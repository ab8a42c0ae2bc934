import { DECORATORS } from '@nestjs/swagger';
import { Json, JsonObject, schema31 } from './json-schema';

/** Keys of @nestjs/swagger's property metadata that are not JSON Schema. */
const NOT_SCHEMA = new Set(['required', 'isArray', 'selfRequired']);

/**
 * The JSON Schema (2020-12, as in the OpenAPI 3.1 document) of a flat request DTO, read
 * from the same @ApiProperty metadata the OpenAPI document is generated from: what the
 * agent tools publish is what REST publishes, and both come from the DTO's field decorators.
 * Unknown fields are refused, as the validation pipe refuses them.
 */
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
