import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { FastifyReply, FastifyRequest } from 'fastify';
import { AuthorizePartnerRequest } from '../../../application/access/authorize-partner-request';
import { rateLimitHeaders } from './rate-limit-headers';

/** Every partner route needs a valid key from an allowed address within the key's rate limit. */
@Injectable()
export class PartnerAuthGuard implements CanActivate {
  constructor(private readonly authorize: AuthorizePartnerRequest) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const { caller, rateLimit } = await this.authorize.execute({
      authorization: request.headers.authorization,
      ip: request.ip,
      requestId: request.id,
    });
    request.caller = caller;
    void http.getResponse<FastifyReply>().headers(rateLimitHeaders(rateLimit));
    return true;
  }
}
