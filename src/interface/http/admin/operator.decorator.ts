import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { FastifyRequest } from 'fastify';
import { actorOf, OperatorIdentity } from '../../../application/back-office/operator-identity';
import { Actor } from '../../../domain/shared/actor';
import { signedInOperator } from './signed-in-operator';

export const CurrentOperator = createParamDecorator((_: unknown, context: ExecutionContext): Actor =>
  actorOf(signedInOperator(context.switchToHttp().getRequest<FastifyRequest>())),
);

export const CurrentIdentity = createParamDecorator((_: unknown, context: ExecutionContext): OperatorIdentity =>
  signedInOperator(context.switchToHttp().getRequest<FastifyRequest>()),
);
