import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { FastifyRequest } from 'fastify';
import { actorOf, OperatorIdentity } from '../../../application/back-office/operator-identity';
import { Actor } from '../../../domain/shared/actor';
import { signedInOperator } from './signed-in-operator';

/** The operator acting, as their token says: the actor recorded on every event they cause. */
export const CurrentOperator = createParamDecorator((_: unknown, context: ExecutionContext): Actor =>
  actorOf(signedInOperator(context.switchToHttp().getRequest<FastifyRequest>())),
);

/** Who is signed in, with their role and token's expiry (GET /v1/admin/operators/me). */
export const CurrentIdentity = createParamDecorator((_: unknown, context: ExecutionContext): OperatorIdentity =>
  signedInOperator(context.switchToHttp().getRequest<FastifyRequest>()),
);
