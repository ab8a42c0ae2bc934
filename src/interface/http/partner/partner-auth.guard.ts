import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { FastifyRequest } from 'fastify';
import { AuthenticateApiKey } from '../../../application/auth/authenticate-api-key';

/** Every partner route needs a valid bearer key; the key decides partner and environment. */
@Injectable()
export class PartnerAuthGuard implements CanActivate {
  constructor(private readonly authenticate: AuthenticateApiKey) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    request.caller = await this.authenticate.execute(request.headers.authorization, request.id);
    return true;
  }
}
