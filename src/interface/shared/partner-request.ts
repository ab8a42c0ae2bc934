import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { FastifyRequest } from 'fastify';
import { Caller } from '../../application/auth/caller';

declare module 'fastify' {
  interface FastifyRequest {
    caller?: Caller;
  }
}

/** The authenticated partner of the request (set by PartnerAuthGuard). */
export const CurrentCaller = createParamDecorator((_: unknown, context: ExecutionContext): Caller => {
  const caller = context.switchToHttp().getRequest<FastifyRequest>().caller;
  if (!caller) throw new Error('CurrentCaller used on a route without PartnerAuthGuard');
  return caller;
});
