import { CanActivate, ExecutionContext, Inject, Injectable, Logger } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { createHash, timingSafeEqual } from 'node:crypto';
import { FastifyRequest } from 'fastify';
import { AuthenticateOperator } from '../../../application/back-office/authenticate-operator';
import { SourceThrottle } from '../../../application/access/source-throttle';
import { BREAK_GLASS_IDENTITY, OperatorIdentity } from '../../../application/back-office/operator-identity';
import { ServiceError } from '../../../application/shared/service-error';
import { mayDo, Permission } from '../../../domain/back-office/operator-role';
import { SERVICE_CONFIG, ServiceConfig } from '../../../config/service-config';
import { PERMISSION_KEY } from './permission.decorator';
import { rememberOperator } from './signed-in-operator';

const digest = (text: string): Buffer => createHash('sha256').update(text).digest();

/** What a refused role was asking to do, in the refusal's words. */
const ASKED: Record<Permission, string> = {
  read: 'read the back office',
  manage_partners: "onboard partners or change a partner's KYC, keys or settings",
  issue_credentials: "obtain a partner's API keys or webhook secret",
  move_money: 'credit wallets or resolve held orders',
  resend_webhooks: 're-send webhooks',
  run_projections: 'rebuild read models',
  manage_routes: 'change live routes',
  run_reconciliation: 'run a reconciliation that records findings',
  manage_operators: 'manage back-office operators',
};

const BREAK_GLASS_WARNING_EVERY_MS = 60_000;

// Lets in operator tokens and the break-glass ADMIN_TOKEN (constant-time), each within its role: the route's
// permission, none declared being the owner's alone (decision 0074). Remembers the operator as the actor;
// an address with too many wrong tokens gets 429 before its next token is looked at.
@Injectable()
export class AdminTokenGuard implements CanActivate {
  private readonly breakGlass: Buffer;
  private readonly log = new Logger('BackOfficeAccess');
  private lastWarningAt = 0;
  private usesSinceWarning = 0;

  constructor(
    @Inject(SERVICE_CONFIG) config: ServiceConfig,
    private readonly reflector: Reflector,
    private readonly operators: AuthenticateOperator,
    private readonly sourceThrottle: SourceThrottle,
  ) {
    this.breakGlass = digest(config.adminToken);
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const identity = await this.sourceThrottle.authenticate(request.ip, 'invalid_admin_token', () =>
      this.identify(request),
    );
    const permission =
      this.reflector.getAllAndOverride<Permission | undefined>(PERMISSION_KEY, [
        context.getHandler(),
        context.getClass(),
      ]) ?? 'manage_operators';
    if (!mayDo(identity.role, permission))
      throw new ServiceError(
        'role_forbidden',
        `${identity.name} has the role ${identity.role}, which may not ${ASKED[permission]}`,
      );
    if (identity.breakGlass) this.noteBreakGlass(request);
    rememberOperator(request, identity);
    return true;
  }

  private async identify(request: FastifyRequest): Promise<OperatorIdentity> {
    const token = /^Bearer (\S+)$/i.exec(request.headers.authorization ?? '')?.[1] ?? '';
    if (!token) throw new ServiceError('invalid_admin_token', 'the operator token is missing or wrong');
    return timingSafeEqual(digest(token), this.breakGlass) ? BREAK_GLASS_IDENTITY : this.operators.identify(token);
  }

  /** Break-glass use is logged as a warning, at most once a minute with the count since, scrapes aside (decision 0131). */
  private noteBreakGlass(request: FastifyRequest): void {
    const path = request.url.split('?')[0];
    if (path === '/metrics') return;
    this.usesSinceWarning += 1;
    const now = Date.now();
    if (now - this.lastWarningAt < BREAK_GLASS_WARNING_EVERY_MS) return;
    this.log.warn(
      `the break-glass owner token (ADMIN_TOKEN) was used: ${request.method} ${path}` +
        (this.usesSinceWarning > 1 ? ` (${this.usesSinceWarning} uses since the last warning)` : '') +
        '; give people operator tokens (cli operator create)',
    );
    this.lastWarningAt = now;
    this.usesSinceWarning = 0;
  }
}
