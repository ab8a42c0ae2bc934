import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { createHash, timingSafeEqual } from 'node:crypto';
import { FastifyRequest } from 'fastify';
import { ServiceError } from '../../../application/shared/service-error';
import { ServiceConfig } from '../../../config/service-config';
import { SERVICE_CONFIG } from '../../../composition/tokens';

const digest = (text: string): Buffer => createHash('sha256').update(text).digest();

/** The back office is open only to holders of the operator token; compared in constant time. */
@Injectable()
export class AdminTokenGuard implements CanActivate {
  private readonly expected: Buffer;

  constructor(@Inject(SERVICE_CONFIG) config: ServiceConfig) {
    this.expected = digest(config.adminToken);
  }

  canActivate(context: ExecutionContext): boolean {
    const header = context.switchToHttp().getRequest<FastifyRequest>().headers.authorization ?? '';
    const token = /^Bearer (\S+)$/i.exec(header)?.[1] ?? '';
    if (!token || !timingSafeEqual(digest(token), this.expected)) {
      throw new ServiceError('invalid_admin_token', 'the operator token is missing or wrong');
    }
    return true;
  }
}
