import { Injectable } from '@nestjs/common';
import { FastifyReply, FastifyRequest } from 'fastify';
import { AuthorizePartnerRequest } from '../../application/access/authorize-partner-request';
import { Caller } from '../../application/auth/caller';
import { rateLimitHeaders } from './rate-limit-headers';
import './partner-request';

/**
 * Admits a partner request, REST or agent tool alike, in one call: a valid key (401/403
 * kyc_required), an allowed address (403 ip_not_allowed), the key's rate limit (429).
 * On success the caller is set on the request and the RateLimit-* headers on the reply.
 */
@Injectable()
export class PartnerRequestAuthorizer {
  constructor(private readonly authorizePartnerRequest: AuthorizePartnerRequest) {}

  async authorize(request: FastifyRequest, reply: FastifyReply): Promise<Caller> {
    const { caller, rateLimit } = await this.authorizePartnerRequest.execute({
      authorization: request.headers.authorization,
      ip: request.ip,
      requestId: request.id,
    });
    request.caller = caller;
    // Set on the raw response so they survive a hijacked reply (the agent-tool transport writes it itself).
    for (const [name, value] of Object.entries(rateLimitHeaders(rateLimit))) reply.raw.setHeader(name, value);
    return caller;
  }
}
