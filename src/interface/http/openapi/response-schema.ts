import { Type } from '@nestjs/common';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Json, JsonObject, asObject, jsonOf, schema31 } from '../../shared/requests/json-schema';

type SwaggerServices = typeof import('@nestjs/swagger/dist/services/schema-object-factory') &
  typeof import('@nestjs/swagger/dist/services/model-properties-accessor') &
  typeof import('@nestjs/swagger/dist/services/swagger-types-mapper');

/** The classes SwaggerModule.createDocument explores DTOs with, loaded by file (the package exports only its index). */
function swaggerServices(): SwaggerServices {
  const loadFile = createRequire(__filename);
  const services = join(dirname(require.resolve('@nestjs/swagger')), 'services');
  const load = (file: string): object => loadFile(join(services, file)) as object;
  return Object.assign(
    {},
    load('schema-object-factory.js'),
    load('model-properties-accessor.js'),
    load('swagger-types-mapper.js'),
  ) as SwaggerServices;
}

const COMPONENT_PREFIX = '#/components/schemas/';

// A response DTO's schema as the OpenAPI document publishes it, references inlined, so a route hands it to
// Fastify's compiled serializer without a second copy of the shape (decision 0102).
export function responseSchemaOf(dto: Type): JsonObject {
  const components: Parameters<InstanceType<SwaggerServices['SchemaObjectFactory']>['exploreModelSchema']>[1] = {};
  const { SchemaObjectFactory, ModelPropertiesAccessor, SwaggerTypesMapper } = swaggerServices();
  const factory = new SchemaObjectFactory(new ModelPropertiesAccessor(), new SwaggerTypesMapper());
  const name = factory.exploreModelSchema(dto, components);
  const published = Object.fromEntries(
    Object.entries(components).map(([key, schema]) => [key, schema31(jsonOf(schema))]),
  );
  return inlined(published[name], published) as JsonObject;
}

function inlined(value: Json, components: Record<string, Json>): Json {
  if (Array.isArray(value)) return value.map((item) => inlined(item, components));
  const schema = asObject(value);
  if (!schema) return value;
  const ref = schema.$ref;
  if (typeof ref === 'string' && ref.startsWith(COMPONENT_PREFIX)) {
    const { $ref: _ref, ...beside } = schema;
    const target = components[ref.slice(COMPONENT_PREFIX.length)];
    if (target === undefined) throw new Error(`unknown schema reference ${ref}`);
    return inlined({ ...(asObject(target) ?? {}), ...beside }, components);
  }
  return Object.fromEntries(Object.entries(schema).map(([key, child]) => [key, inlined(child, components)]));
}
