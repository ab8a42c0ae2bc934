import { Type } from '@nestjs/common';
import fastJsonStringify from 'fast-json-stringify';
import { responseSchemaOf } from './response-schema';

export type Serializer = (value: object) => string;

/**
 * The serializer fast-json-stringify compiles from a response DTO's published schema: the one
 * Fastify compiles for a route given that schema (see SerializedAs), for answers written before
 * they reach Fastify.
 */
export function compiledSerializerOf(dto: Type): Serializer {
  return fastJsonStringify(responseSchemaOf(dto));
}
