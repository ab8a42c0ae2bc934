import { Injectable } from '@nestjs/common';
import { FastifyRequest } from 'fastify';
import { AuthenticateApiKey } from '../../application/auth/authenticate-api-key';
import { Caller } from '../../application/auth/caller';
import '../http/partner/partner-request';

/**
 * Admits a partner request, REST or agent-tool alike, in one call: today it checks the
 * bearer key (401 invalid_api_key, 403 kyc_required). The IP allowlist (403 ip_not_allowed)
 * and the per-key rate limit (429 rate_limit_exceeded) belong here too, so every entry
 * point that calls `authorize` gets them without a change of its own.
 *
 * Throws a ServiceError on refusal; on success the caller is also set on the request.
 */
@Injectable()
export class PartnerRequestAuthorizer {
  constructor(private readonly authenticate: AuthenticateApiKey) {}

  async authorize(request: FastifyRequest): Promise<Caller> {
    const caller = await this.authenticate.execute(request.headers.authorization, request.id);
    request.caller = caller;
    return caller;
  }
}
