import { Body, Controller, Get, HttpCode, Param, Patch, Post, Query, UseGuards } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { Caller } from '../../../application/auth/caller';
import { ConfigurePartner } from '../../../application/settings/configure-partner';
import { GetPartnerSettings } from '../../../application/settings/get-partner-settings';
import { GetWebhookDelivery, ListWebhookDeliveries } from '../../../application/webhooks/webhook-deliveries';
import { ServiceError } from '../../../application/shared/service-error';
import { DELIVERY_STATES, DeliveryState } from '../../../application/ports/webhook.port';
import { queryLimit, refuseUnknownQuery } from '../validation/query-values';
import { UpdateSettingsDto } from './dto/settings.dto';
import { CurrentCaller } from './partner-request';
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
  ) {}

  @Get('settings')
  settings(@CurrentCaller() caller: Caller) {
    return this.queries.execute(new GetPartnerSettings(caller.partnerId, caller.environment));
  }

  @Patch('settings')
  update(@CurrentCaller() caller: Caller, @Body() body: UpdateSettingsDto) {
    return this.commands.execute(
      new ConfigurePartner(
        caller.partnerId,
        caller.environment,
        { webhookUrl: body.webhook_url, ipAllowlist: body.ip_allowlist, rateLimitPerMinute: body.rate_limit_per_minute },
        { type: 'partner_key', id: caller.keyId },
      ),
    );
  }

  @Post('settings/webhook-secret/rotate')
  @HttpCode(200)
  rotate(@CurrentCaller() caller: Caller) {
    return this.commands.execute(new ConfigurePartner(caller.partnerId, caller.environment, { rotateWebhookSecret: true }, { type: 'partner_key', id: caller.keyId }));
  }

  @Get('webhook-deliveries')
  deliveries(@CurrentCaller() caller: Caller, @Query() query: Record<string, unknown>) {
    refuseUnknownQuery(query, ['state', 'limit']);
    const { state } = query;
    if (state !== undefined && !DELIVERY_STATES.includes(state as DeliveryState)) throw new ServiceError('validation_failed', `state: one of ${DELIVERY_STATES.join(', ')}`);
    const limit = queryLimit(query.limit, 50, 100);
    return this.queries.execute(
      new ListWebhookDeliveries({ partnerId: caller.partnerId, environment: caller.environment, state: state as DeliveryState | undefined, limit }),
    );
  }

  @Get('webhook-deliveries/:id')
  delivery(@CurrentCaller() caller: Caller, @Param('id') id: string) {
    return this.queries.execute(new GetWebhookDelivery(id, { partnerId: caller.partnerId, environment: caller.environment }));
  }
}
