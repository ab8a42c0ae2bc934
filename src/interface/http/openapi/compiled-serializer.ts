import { Type } from '@nestjs/common';
import fastJsonStringify from 'fast-json-stringify';
import { responseSchemaOf } from './response-schema';

/** Writes what fits its DTO: a resource the DTO is held to (see ResponseOf), never any object. */
export type Serializer<Dto> = (value: Dto) => string;

/** The serializer Fastify compiles for a route with this DTO's schema (SerializedAs), for answers written before it. */
export function compiledSerializerOf<Dto extends object>(dto: Type<Dto>): Serializer<Dto> {
  return fastJsonStringify(responseSchemaOf(dto));
}
