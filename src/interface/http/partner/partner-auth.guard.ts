import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { FastifyReply, FastifyRequest } from 'fastify';
import { PartnerRequestAuthorizer } from '../../shared/partner-request-authorizer';

/** Every partner route needs a valid key from an allowed address within the key's rate limit. */
@Injectable()
export class PartnerAuthGuard implements CanActivate {
  constructor(private readonly authorizer: PartnerRequestAuthorizer) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    await this.authorizer.authorize(http.getRequest<FastifyRequest>(), http.getResponse<FastifyReply>());
    return true;
  }
}
