import { Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiExcludeController } from '@nestjs/swagger';
import { actorOf, OperatorIdentity } from '../../../application/back-office/operator-identity';
import { ResealWebhookSecrets } from '../../../application/settings/reseal-webhook-secrets';
import { AdminTokenGuard } from './admin-token.guard';
import { CurrentIdentity } from './operator.decorator';
import { resealResource } from './reseal-resource';

/** Rotation of the server secret (API_KEY_SECRETS): what is sealed is sealed again under the newest. The owner's alone. */
@ApiExcludeController()
@Controller('v1/admin/secrets')
@UseGuards(AdminTokenGuard)
export class SecretsController {
  constructor(private readonly commands: CommandBus) {}

  @Post('reseal')
  @HttpCode(200)
  reseal(@CurrentIdentity() operator: OperatorIdentity) {
    return this.commands.execute(new ResealWebhookSecrets(actorOf(operator))).then(resealResource);
  }
}
