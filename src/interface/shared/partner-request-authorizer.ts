import { Injectable } from '@nestjs/common';
import { FastifyReply, FastifyRequest } from 'fastify';
import { AuthorizePartnerRequest } from '../../application/access/authorize-partner-request';
import { Caller } from '../../application/auth/caller';
import { rateLimitHeaders } from './rate-limit-headers';
import './partner-request';

// Admits a partner request, REST or tool alike: a valid key (401/403 kyc_required), an allowed address
// (403 ip_not_allowed), the key's rate limit (429); then sets the caller on the request and RateLimit-* headers.
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
