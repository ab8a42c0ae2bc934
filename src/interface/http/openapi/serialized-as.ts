import { Type, applyDecorators } from '@nestjs/common';
import { RouteSchema } from '@nestjs/platform-fastify';
import { responseSchemaOf } from './response-schema';

// Gives Fastify the published schema of a route's 200 answer, so it is written by a serializer compiled once
// (decision 0102); other statuses keep the default. Only for answers that fit the DTO: it writes nothing else.
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
