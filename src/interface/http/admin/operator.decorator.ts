import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { FastifyRequest } from 'fastify';
import { Actor } from '../../../domain/shared/actor';

/** The operator acting, as named by the optional X-Operator-Id header (recorded on every event). */
export const CurrentOperator = createParamDecorator((_: unknown, context: ExecutionContext): Actor => {
  const header = context.switchToHttp().getRequest<FastifyRequest>().headers['x-operator-id'];
  const id = typeof header === 'string' && /^[\w.@-]{1,64}$/.test(header) ? header : 'admin-token';
  return { type: 'operator', id };
});
