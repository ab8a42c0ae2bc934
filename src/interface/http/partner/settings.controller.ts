import { Body, Controller, Get, HttpCode, Param, Patch, Post, Query, UseGuards } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import {
  ApiAcceptedResponse,
  ApiBearerAuth,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiQuery,
  ApiTags,
} from '@nestjs/swagger';
import { ApiErrorResponses } from '../openapi/api-error-responses';
import {
  PartnerSettingsDto,
  WebhookDeliveryDto,
  WebhookDeliveryListDto,
  WebhookResendDto,
} from './dto/settings-response.dto';
import { Caller } from '../../../application/auth/caller';
import { MainKeyRequirement } from '../../../application/auth/main-key-requirement';
import { ConfigurePartner } from '../../../application/settings/configure-partner';
import { GetPartnerSettings } from '../../../application/settings/get-partner-settings';
import {
  GetWebhookDelivery,
  ListWebhookDeliveries,
  ResendWebhook,
} from '../../../application/webhooks/webhook-deliveries';
import { deliveryListResource, deliveryResource, resendResource } from '../webhook-delivery-resources';
import { ServiceError } from '../../../application/shared/service-error';
import { DELIVERY_STATES, DeliveryState } from '../../../application/ports/webhook.port';
import { queryLimit, refuseUnknownQuery } from '../validation/query-values';
import { UpdateSettingsDto } from './dto/settings.dto';
import { CurrentCaller } from '../../shared/partner-request';
import { configuredSettingsResource, partnerSettingsResource } from '../../shared/settings-resources';
import { PartnerAuthGuard } from './partner-auth.guard';

/** The partner's own settings for the key's environment, and the record of webhook deliveries. */
@ApiTags('settings')
@ApiBearerAuth()
@Controller('v1/partner')
@UseGuards(PartnerAuthGuard)
export class SettingsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly mainKey: MainKeyRequirement,
  ) {}

  @Get('settings')
  @ApiOperation({
    summary: "Your webhook, IP allowlist and rate limit for the key's environment",
    operationId: 'getSettings',
  })
  @ApiOkResponse({ type: PartnerSettingsDto })
  @ApiErrorResponses({})
  settings(@CurrentCaller() caller: Caller) {
    return this.queries
      .execute(new GetPartnerSettings(caller.partnerId, caller.environment))
      .then(partnerSettingsResource);
  }

  @Patch('settings')
  @ApiOperation({
    summary:
      'Change your webhook URL, IP allowlist, rate limit or low-balance threshold; the first webhook URL comes with a secret, shown once',
    operationId: 'updateSettings',
  })
  @ApiOkResponse({
    type: PartnerSettingsDto,
    description: 'The settings now; webhook_secret only when one was created',
  })
  @ApiErrorResponses({
    400: 'validation_failed: a field is malformed, or a live webhook URL is not https to a public address',
    413: true,
    415: true,
  })
  async update(@CurrentCaller() caller: Caller, @Body() body: UpdateSettingsDto) {
    await this.mainKey.check(caller, 'change settings');
    const configured = await this.commands.execute(
      new ConfigurePartner(
        caller.partnerId,
        caller.environment,
        {
          webhookUrl: body.webhook_url,
          ipAllowlist: body.ip_allowlist,
          rateLimitPerMinute: body.rate_limit_per_minute,
          lowBalanceThreshold: body.low_balance_threshold,
        },
        { type: 'partner_key', id: caller.keyId },
      ),
    );
    return configuredSettingsResource(configured);
  }

  @Post('settings/webhook-secret/rotate')
  @HttpCode(200)
  @ApiOperation({
    summary: 'A new webhook secret, shown once; the previous one keeps signing for 24 hours',
    operationId: 'rotateWebhookSecret',
  })
  @ApiOkResponse({ type: PartnerSettingsDto, description: 'The settings now, with the new webhook_secret' })
  @ApiErrorResponses({})
  async rotate(@CurrentCaller() caller: Caller) {
    await this.mainKey.check(caller, 'rotate the webhook secret');
    const configured = await this.commands.execute(
      new ConfigurePartner(
        caller.partnerId,
        caller.environment,
        { rotateWebhookSecret: true },
        { type: 'partner_key', id: caller.keyId },
      ),
    );
    return configuredSettingsResource(configured);
  }

  @Get('webhook-deliveries')
  @ApiOperation({
    summary: 'Your webhook deliveries and their attempts, newest first',
    operationId: 'listWebhookDeliveries',
  })
  @ApiQuery({ name: 'state', required: false, enum: [...DELIVERY_STATES] })
  @ApiQuery({
    name: 'limit',
    required: false,
    description: '1 to 100, default 50',
    schema: { type: 'integer', minimum: 1, maximum: 100, default: 50 },
  })
  @ApiOkResponse({ type: WebhookDeliveryListDto })
  @ApiErrorResponses({ 400: 'validation_failed: an unknown or malformed filter, named at the start of `detail`' })
  deliveries(@CurrentCaller() caller: Caller, @Query() query: Record<string, unknown>) {
    refuseUnknownQuery(query, ['state', 'limit']);
    const { state } = query;
    if (state !== undefined && !DELIVERY_STATES.includes(state as DeliveryState))
      throw new ServiceError('validation_failed', `state: one of ${DELIVERY_STATES.join(', ')}`);
    const limit = queryLimit(query.limit, 50, 100);
    return this.queries
      .execute(
        new ListWebhookDeliveries({
          partnerId: caller.partnerId,
          environment: caller.environment,
          state: state as DeliveryState | undefined,
          limit,
        }),
      )
      .then(deliveryListResource);
  }

  @Get('webhook-deliveries/:id')
  @ApiOperation({ summary: 'One webhook delivery with its attempts', operationId: 'getWebhookDelivery' })
  @ApiParam({
    name: 'id',
    description: 'delivery_id (the event_id your endpoint received)',
    schema: { type: 'string', minLength: 1 },
  })
  @ApiOkResponse({ type: WebhookDeliveryDto })
  @ApiErrorResponses({ 404: 'not_found: no such delivery of yours' })
  delivery(@CurrentCaller() caller: Caller, @Param('id') id: string) {
    return this.queries
      .execute(new GetWebhookDelivery(id, { partnerId: caller.partnerId, environment: caller.environment }))
      .then(deliveryResource);
  }

  @Post('webhook-deliveries/:id/resend')
  @HttpCode(202)
  @ApiOperation({
    summary:
      'Send a delivery again, now: the same body and event_id, to your current URL, signed with your current secret',
    description:
      "One more attempt, scheduled at once; it shows in the delivery's attempts when made. It starts no new retries. " +
      'Asking again before it is made schedules nothing more. Main key only.',
    operationId: 'resendWebhookDelivery',
  })
  @ApiParam({
    name: 'id',
    description: 'delivery_id (the event_id your endpoint received)',
    schema: { type: 'string', minLength: 1 },
  })
  @ApiAcceptedResponse({ type: WebhookResendDto })
  @ApiErrorResponses({ 404: 'not_found: no such delivery of yours' })
  async resend(@CurrentCaller() caller: Caller, @Param('id') id: string) {
    await this.mainKey.check(caller, 're-send webhooks');
    return this.commands
      .execute(new ResendWebhook(id, { kind: 'partner', partnerId: caller.partnerId, environment: caller.environment }))
      .then(resendResource);
  }
}
