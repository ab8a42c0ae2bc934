import { Type, applyDecorators } from '@nestjs/common';
import { RouteSchema } from '@nestjs/platform-fastify';
import { responseSchemaOf } from './response-schema';

/**
 * Gives Fastify the published schema of a route's 200 answer, so it sends the controller's object
 * through a serializer compiled once for the route instead of JSON.stringify. Other statuses (the
 * Error body) keep the default serialization. Only a method whose answer fits the DTO takes it:
 * the compiled serializer writes the DTO's fields and nothing else.
 */
export function SerializedAs<Dto extends object>(dto: Type<Dto>) {
  const schema = applyDecorators(RouteSchema({ response: { 200: responseSchemaOf(dto) } }));
  return <Route extends (...args: never[]) => Promise<Dto>>(
    target: object,
    method: string | symbol,
    descriptor: TypedPropertyDescriptor<Route>,
  ): void => {
    schema(target, method, descriptor);
  };
}
