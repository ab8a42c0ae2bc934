import { Type, applyDecorators } from '@nestjs/common';
import { RouteSchema } from '@nestjs/platform-fastify';
import { responseSchemaOf } from './response-schema';

/**
 * Gives Fastify the published schema of a route's 200 answer, so it sends the controller's object
 * through a serializer compiled once for the route instead of JSON.stringify. Other statuses (the
 * Error body) keep the default serialization.
 */
export const SerializedAs = (dto: Type): MethodDecorator =>
  applyDecorators(RouteSchema({ response: { 200: responseSchemaOf(dto) } }));
