import { CanActivate, ExecutionContext, Injectable, createParamDecorator } from '@nestjs/common';
import { FastifyRequest } from 'fastify';
import { IDEMPOTENCY_KEY_PATTERN } from '../../../application/ports/idempotency-store.port';
import { ServiceError } from '../../../application/shared/service-error';

/** Value-moving routes need an Idempotency-Key of 8 to 255 visible ASCII characters. */
@Injectable()
export class IdempotencyKeyGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    requiredIdempotencyKey(context.switchToHttp().getRequest<FastifyRequest>().headers['idempotency-key']);
    return true;
  }
}

/** The Idempotency-Key a value-moving route requires: 400 idempotency_key_required when absent. */
export function requiredIdempotencyKey(header: unknown): string {
  const key = optionalIdempotencyKey(header);
  if (key === null) throw new ServiceError('idempotency_key_required', 'the Idempotency-Key header is required');
  return key;
}

/** An Idempotency-Key a route takes but does not require (operator credits): null when absent. */
export function optionalIdempotencyKey(header: unknown): string | null {
  if (header === undefined || header === '') return null;
  if (typeof header !== 'string' || !IDEMPOTENCY_KEY_PATTERN.test(header))
    throw new ServiceError('validation_failed', 'Idempotency-Key: 8 to 255 visible ASCII characters');
  return header;
}

export const IdempotencyKey = createParamDecorator((_: unknown, context: ExecutionContext): string => {
  const header = context.switchToHttp().getRequest<FastifyRequest>().headers['idempotency-key'];
  return typeof header === 'string' ? header : '';
});
