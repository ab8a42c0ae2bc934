import {
  Body,
  Controller,
  Delete,
  Get,
  Headers,
  HttpCode,
  Param,
  Patch,
  Post,
  Query,
  Req,
  Res,
  UseGuards,
} from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { VerifyMoneyInvariants } from '../../../application/audit/verify-money-invariants';
import { verificationResource } from './verification-resource';
import { ShowOrder, ShowPartner } from '../../../application/operations/admin-queries';
import { ResolveOrder } from '../../../application/operations/resolve-order';
import { ChangeKycStatus } from '../../../application/partners/change-kyc-status';
import { CreditWallet } from '../../../application/partners/credit-wallet';
import { OnboardPartner } from '../../../application/partners/onboard-partner';
import { RegenerateApiKey } from '../../../application/partners/regenerate-api-key';
import { ServiceError } from '../../../application/shared/service-error';
import { Actor } from '../../../domain/shared/actor';
import { ServiceErrorWithHeaders } from '../errors/api-exception.filter';
import { optionalIdempotencyKey } from '../partner/idempotency-key.guard';
import { AdminTokenGuard } from './admin-token.guard';
import { RequiresPermission } from './permission.decorator';
import { adminOrderResource, resolvedOrderResource } from './admin-order-resource';
import {
  kycChangeResource,
  onboardedPartnerResource,
  partnerResource,
  regeneratedKeyResource,
  walletCreditResource,
} from './partner-resources';
import { answerWithProgress, ReportProgress, wantsProgress } from './progress-answer';
import {
  AdminCreateScopedKeyDto,
  ConfigurePartnerDto,
  CreatePartnerDto,
  KycDto,
  RegenerateKeyDto,
  ResolveOrderDto,
  WalletCreditDto,
} from './dto/admin.dto';
import { ConfigurePartner } from '../../../application/settings/configure-partner';
import { configuredSettingsResource } from '../../shared/settings-resources';
import { ListWebhookDeliveries, ResendWebhook } from '../../../application/webhooks/webhook-deliveries';
import { deliveryListResource, resendResource } from '../webhook-delivery-resources';
import { DELIVERY_STATES, DeliveryState } from '../../../application/ports/webhook.port';
import { queryLimit, refuseUnknownQuery } from '../validation/query-values';
import { isEnvironment } from '../../../domain/shared/environment';
import { mayDo } from '../../../domain/back-office/operator-role';
import { CurrentIdentity, CurrentOperator } from './operator.decorator';
import { OperatorIdentity, actorOf } from '../../../application/back-office/operator-identity';
import { CreateScopedKey } from '../../../application/keys/create-scoped-key';
import { ListScopedKeys } from '../../../application/keys/list-scoped-keys';
import { RevokeScopedKey } from '../../../application/keys/revoke-scoped-key';
import { scopedKeyRequest } from '../partner/dto/scoped-key.dto';
import { createdScopedKeyResource, revokedKeyResource, scopedKeyListResource } from '../../shared/key-resources';

@ApiExcludeController()
@Controller('v1/admin')
@UseGuards(AdminTokenGuard)
export class AdminController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Post('partners')
  @HttpCode(201)
  @RequiresPermission('manage_partners')
  createPartner(@Body() body: CreatePartnerDto, @CurrentIdentity() identity: OperatorIdentity) {
    const showSandboxKey = mayDo(identity.role, 'issue_credentials');
    const onboard = new OnboardPartner(body.name, body.corridor, actorOf(identity), showSandboxKey);
    return this.commands.execute(onboard).then(onboardedPartnerResource);
  }

  @Get('partners/:id')
  @RequiresPermission('read')
  showPartner(@Param('id') id: string) {
    return this.queries.execute(new ShowPartner(id)).then(partnerResource);
  }

  @Post('partners/:id/kyc')
  @HttpCode(200)
  @RequiresPermission('manage_partners')
  changeKyc(@Param('id') id: string, @Body() body: KycDto, @CurrentIdentity() identity: OperatorIdentity) {
    const issueLiveKey = mayDo(identity.role, 'issue_credentials');
    return this.commands
      .execute(new ChangeKycStatus(id, body.status, actorOf(identity), issueLiveKey))
      .then(kycChangeResource);
  }

  @Post('partners/:id/keys/regenerate')
  @HttpCode(200)
  @RequiresPermission('issue_credentials')
  regenerateKey(@Param('id') id: string, @Body() body: RegenerateKeyDto, @CurrentOperator() operator: Actor) {
    const regenerate = new RegenerateApiKey(id, body.environment, operator, body.keep_restricted_keys === true);
    return this.commands.execute(regenerate).then(regeneratedKeyResource);
  }

  @Post('partners/:id/keys')
  @HttpCode(201)
  @RequiresPermission('issue_credentials')
  createScopedKey(@Param('id') id: string, @Body() body: AdminCreateScopedKeyDto, @CurrentOperator() operator: Actor) {
    const create = new CreateScopedKey(id, body.environment, scopedKeyRequest(body), operator);
    return this.commands.execute(create).then(createdScopedKeyResource);
  }

  @Get('partners/:id/keys')
  @RequiresPermission('read')
  listScopedKeys(@Param('id') id: string, @Query() query: Record<string, unknown>) {
    refuseUnknownQuery(query, ['environment']);
    const environment = query.environment;
    if (typeof environment !== 'string' || !isEnvironment(environment))
      throw new ServiceError('validation_failed', 'environment: required, sandbox or live');
    return this.queries.execute(new ListScopedKeys(id, environment)).then(scopedKeyListResource);
  }

  @Delete('partners/:id/keys/:keyId')
  @RequiresPermission('manage_partners')
  revokeScopedKey(@Param('id') id: string, @Param('keyId') keyId: string, @CurrentOperator() operator: Actor) {
    return this.commands.execute(new RevokeScopedKey(id, null, keyId, operator)).then(() => revokedKeyResource(keyId));
  }

  /** An optional Idempotency-Key makes retries safe: the same key and body credit once and get the first answer. */
  @Post('partners/:id/wallet-credits')
  @HttpCode(200)
  @RequiresPermission('move_money')
  async creditWallet(
    @Param('id') id: string,
    @Body() body: WalletCreditDto,
    @CurrentOperator() operator: Actor,
    @Headers('idempotency-key') idempotencyKey: unknown,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const key = optionalIdempotencyKey(idempotencyKey);
    const answer = await this.commands.execute(
      new CreditWallet(id, body.environment, body.amount, body.reference, operator, key),
    );
    if (answer.replayed) void reply.header('Idempotent-Replay', 'true');
    return walletCreditResource(answer.credit);
  }

  @Patch('partners/:id/settings')
  @RequiresPermission('manage_partners')
  configure(@Param('id') id: string, @Body() body: ConfigurePartnerDto, @CurrentIdentity() identity: OperatorIdentity) {
    const maySeeSecret = mayDo(identity.role, 'issue_credentials');
    if (body.rotate_webhook_secret === true && !maySeeSecret)
      throw new ServiceError(
        'role_forbidden',
        `${identity.name} has the role ${identity.role}, which may not rotate a webhook secret: the partner rotates its own`,
      );
    const configure = new ConfigurePartner(
      id,
      body.environment,
      {
        webhookUrl: body.webhook_url,
        ipAllowlist: body.ip_allowlist,
        // The back office's limit is also the ceiling: the partner may lower it, never raise it past.
        rateLimitPerMinute: body.rate_limit,
        rateLimitCeilingPerMinute: body.rate_limit,
        rotateWebhookSecret: body.rotate_webhook_secret,
      },
      actorOf(identity),
      { maySeeSecret },
    );
    return this.commands.execute(configure).then(configuredSettingsResource);
  }

  @Get('webhook-deliveries')
  @RequiresPermission('read')
  webhookDeliveries(@Query() query: Record<string, unknown>) {
    refuseUnknownQuery(query, ['partner_id', 'environment', 'state', 'limit']);
    const { partner_id: partnerId, environment, state } = query;
    if (partnerId !== undefined && typeof partnerId !== 'string')
      throw new ServiceError('validation_failed', 'partner_id: give it once');
    if (environment !== undefined && (typeof environment !== 'string' || !isEnvironment(environment)))
      throw new ServiceError('validation_failed', 'environment: sandbox or live');
    if (state !== undefined && !DELIVERY_STATES.includes(state as DeliveryState))
      throw new ServiceError('validation_failed', `state: one of ${DELIVERY_STATES.join(', ')}`);
    const limit = queryLimit(query.limit, 100, 1000);
    return this.queries
      .execute(new ListWebhookDeliveries({ partnerId, environment, state: state as DeliveryState | undefined, limit }))
      .then(deliveryListResource);
  }

  @Post('webhook-deliveries/:id/resend')
  @HttpCode(202)
  @RequiresPermission('resend_webhooks')
  resendWebhook(@Param('id') id: string, @CurrentIdentity() operator: OperatorIdentity) {
    return this.commands.execute(new ResendWebhook(id, { kind: 'operator', operator })).then(resendResource);
  }

  @Get('orders/:id')
  @RequiresPermission('read')
  showOrder(@Param('id') id: string) {
    return this.queries.execute(new ShowOrder(id)).then(adminOrderResource);
  }

  @Post('orders/:id/resolve')
  @HttpCode(200)
  @RequiresPermission('move_money')
  resolveOrder(@Param('id') id: string, @Body() body: ResolveOrderDto, @CurrentIdentity() identity: OperatorIdentity) {
    const resolve = new ResolveOrder(id, body.outcome, body.reason, actorOf(identity), identity.role, {
      againstReconciliation: body.against_reconciliation === true,
      againstProvider: body.against_provider === true,
    });
    return this.commands.execute(resolve).then(resolvedOrderResource);
  }

  /** With `Accept: application/x-ndjson`, progress lines while the log is walked, then the answer (progress-answer.ts). */
  @Get('verify')
  @RequiresPermission('read')
  async verify(
    @Headers('accept') accept: string | undefined,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ) {
    if (wantsProgress(accept)) {
      await answerWithProgress(request, reply, 'verify', (progress) => this.verifiedReport(progress));
      return;
    }
    await reply.send(await this.verifiedReport());
  }

  private async verifiedReport(progress?: ReportProgress) {
    const report = verificationResource(await this.queries.execute(new VerifyMoneyInvariants(undefined, progress)));
    if (!report.ok) throw new VerifyBreach(report);
    return report;
  }
}

/** A failed verification answers 409 with the report's breaches in the body. */
class VerifyBreach extends ServiceErrorWithHeaders {
  constructor(report: { breaches: unknown[] }) {
    super('invariant_breach', `${report.breaches.length} money invariant breach(es); see breaches`, {}, { ...report });
  }
}
